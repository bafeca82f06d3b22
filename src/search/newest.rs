//! The newest matches of a query, found without visiting every match.
//!
//! Posts are added to the index oldest first (a build sorts them; later posts are newer), so in
//! each segment the newest documents are mostly the last ones. A segment is read backwards, a
//! window of documents at a time (a fresh scorer sought to the window's start), until the
//! wanted number of matches is held and nothing before the window can be newer than the oldest
//! of them — which the segment's recency summary (the newest creation time up to each block of
//! documents, computed once per segment) tells. The answer is exact whatever the order of the
//! documents: an edited old post added at the end, or segments merged in any order, only make
//! the read longer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tantivy::index::SegmentId;
use tantivy::query::Weight;
use tantivy::{DocId, DocSet, Score, Searcher, SegmentReader, TERMINATED};

/// Documents per block of a segment's recency summary.
const BLOCK: u32 = 128;
/// Documents read in a segment's first window, at least.
const FIRST_WINDOW: u32 = 256;

/// A match: its score and its recency key (creation time, then the id's two halves).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub score: Score,
    pub created: i64,
    pub hi: u64,
    pub lo: u64,
}

impl Hit {
    fn recency(&self) -> (i64, u64, u64) {
        (self.created, self.hi, self.lo)
    }
}

/// The newest matches, and whether they are all the matches there are.
#[derive(Debug, Clone)]
pub struct Newest {
    /// At most the bound asked for, in no particular order.
    pub hits: Vec<Hit>,
    /// `false` when more matches exist than were kept (or may exist among documents not read).
    pub complete: bool,
    /// How many documents the windows read covered.
    pub read: u64,
}

/// The recency summaries of the segments seen, by segment.
#[derive(Default)]
pub struct Recency {
    summaries: Mutex<HashMap<SegmentId, Arc<Vec<i64>>>>,
}

/// One segment, ready to be read.
struct Part<'a> {
    reader: &'a SegmentReader,
    /// `newest_up_to[b]`: the newest creation time among documents `0 .. (b + 1) * BLOCK`.
    newest_up_to: Arc<Vec<i64>>,
}

impl Part<'_> {
    /// The newest creation time among documents before `end` (`None` when there are none).
    fn newest_before(&self, end: DocId) -> Option<i64> {
        if end == 0 {
            return None;
        }
        self.newest_up_to.get(((end - 1) / BLOCK) as usize).copied()
    }
}

fn summary_of(reader: &SegmentReader) -> tantivy::Result<Vec<i64>> {
    let created = reader.fast_fields().i64("created")?.first_or_default_col(0);
    let max_doc = reader.max_doc();
    let mut out = Vec::with_capacity(max_doc.div_ceil(BLOCK) as usize);
    let mut newest = i64::MIN;
    for doc in 0..max_doc {
        newest = newest.max(created.get_val(doc));
        if (doc + 1) % BLOCK == 0 || doc + 1 == max_doc {
            out.push(newest);
        }
    }
    Ok(out)
}

impl Recency {
    /// The searcher's segments with their summaries (computed for new segments; those of
    /// segments no longer searched are dropped).
    fn parts<'a>(&self, searcher: &'a Searcher) -> tantivy::Result<Vec<Part<'a>>> {
        let readers = searcher.segment_readers();
        let known: Vec<Option<Arc<Vec<i64>>>> = {
            let summaries = self.summaries.lock().unwrap_or_else(|e| e.into_inner());
            readers
                .iter()
                .map(|r| summaries.get(&r.segment_id()).cloned())
                .collect()
        };
        let mut parts = Vec::with_capacity(readers.len());
        let mut computed = Vec::new();
        for (reader, known) in readers.iter().zip(known) {
            let newest_up_to = match known {
                Some(s) => s,
                None => {
                    let s = Arc::new(summary_of(reader)?);
                    computed.push((reader.segment_id(), s.clone()));
                    s
                }
            };
            parts.push(Part {
                reader,
                newest_up_to,
            });
        }
        if !computed.is_empty() {
            let mut summaries = self.summaries.lock().unwrap_or_else(|e| e.into_inner());
            summaries.extend(computed);
            summaries.retain(|id, _| readers.iter().any(|r| r.segment_id() == *id));
        }
        Ok(parts)
    }

    /// The `bound` newest documents `weight` matches (by creation time, then id), with their
    /// scores.
    pub fn newest(
        &self,
        searcher: &Searcher,
        weight: &dyn Weight,
        bound: usize,
    ) -> tantivy::Result<Newest> {
        let bound = bound.max(1);
        let mut parts = self.parts(searcher)?;
        // The segment holding the newest documents first: its matches set the bar for the rest.
        parts.sort_by_key(|p| std::cmp::Reverse(p.newest_before(p.reader.max_doc())));
        let mut hits: Vec<Hit> = Vec::new();
        let mut complete = true;
        let mut covered: u64 = 0;
        // The recency of the oldest hit kept, once `bound` are held: nothing older can enter.
        let mut floor: Option<(i64, u64, u64)> = None;
        for part in &parts {
            let reader = part.reader;
            let fast = reader.fast_fields();
            let created = fast.i64("created")?.first_or_default_col(0);
            let hi = fast.u64("id_hi")?.first_or_default_col(0);
            let lo = fast.u64("id_lo")?.first_or_default_col(0);
            let alive = reader.alive_bitset();
            let mut end = reader.max_doc();
            let mut window = FIRST_WINDOW;
            while end > 0 {
                if let (Some(floor), Some(newest)) = (floor, part.newest_before(end)) {
                    if newest < floor.0 {
                        // Documents remain unread: they may match, but none can enter.
                        complete = false;
                        break;
                    }
                }
                let start = end.saturating_sub(window);
                let before = hits.len();
                let mut scorer = weight.scorer(reader, 1.0)?;
                let mut doc = if scorer.doc() >= start {
                    scorer.doc()
                } else {
                    scorer.seek(start)
                };
                while doc != TERMINATED && doc < end {
                    if alive.is_none_or(|a| a.is_alive(doc)) {
                        hits.push(Hit {
                            score: scorer.score(),
                            created: created.get_val(doc),
                            hi: hi.get_val(doc),
                            lo: lo.get_val(doc),
                        });
                    }
                    doc = scorer.advance();
                }
                if hits.len() > bound {
                    hits.select_nth_unstable_by(bound - 1, |a, b| b.recency().cmp(&a.recency()));
                    hits.truncate(bound);
                    complete = false;
                }
                if hits.len() == bound {
                    floor = hits.iter().map(Hit::recency).min();
                }
                // The next window: as many documents as should hold the matches still wanted,
                // judging by how many this one held (at least twice as many when it held none).
                let read = end - start;
                covered += u64::from(read);
                let found = hits.len().saturating_sub(before);
                let wanted = bound.saturating_sub(hits.len()).max(1);
                window = if found == 0 {
                    read.saturating_mul(2)
                } else {
                    let estimate = (wanted as f64) * f64::from(read) / (found as f64) * 1.25;
                    (estimate.min(f64::from(u32::MAX)) as u32).max(FIRST_WINDOW)
                };
                end = start;
            }
        }
        Ok(Newest {
            hits,
            complete,
            read: covered,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::query::{EnableScoring, Query, TermQuery};
    use tantivy::schema::{IndexRecordOption, Schema, FAST, STRING};
    use tantivy::{doc, Index, IndexWriter, Term};

    /// An index of posts `(id, created, word)` written in the given batches (one segment each,
    /// never merged), then the ids deleted.
    fn index_of(batches: &[Vec<(u64, i64, &str)>], deleted: &[u64]) -> (Index, Schema) {
        let mut s = Schema::builder();
        let id = s.add_text_field("id", STRING);
        let word = s.add_text_field("word", STRING);
        let created = s.add_i64_field("created", FAST);
        let hi = s.add_u64_field("id_hi", FAST);
        let lo = s.add_u64_field("id_lo", FAST);
        let schema = s.build();
        let index = Index::create_in_ram(schema.clone());
        let mut writer: IndexWriter = index.writer_with_num_threads(1, 15_000_000).unwrap();
        writer.set_merge_policy(Box::new(tantivy::indexer::NoMergePolicy));
        for batch in batches {
            for (n, at, w) in batch {
                writer
                    .add_document(doc!(
                        id => n.to_string(), word => *w, created => *at, hi => 0u64, lo => *n
                    ))
                    .unwrap();
            }
            writer.commit().unwrap();
        }
        for n in deleted {
            writer.delete_term(Term::from_field_text(id, &n.to_string()));
        }
        writer.commit().unwrap();
        (index, schema)
    }

    /// The ids of the `bound` newest matches of `word`, found by `newest` and by reading all.
    fn both(
        index: &Index,
        schema: &Schema,
        word: &str,
        bound: usize,
    ) -> (Vec<u64>, Vec<u64>, Newest) {
        let searcher = index.reader().unwrap().searcher();
        let field = schema.get_field("word").unwrap();
        let query = TermQuery::new(Term::from_field_text(field, word), IndexRecordOption::Basic);
        let weight = query
            .weight(EnableScoring::enabled_from_searcher(&searcher))
            .unwrap();
        let found = Recency::default()
            .newest(&searcher, weight.as_ref(), bound)
            .unwrap();
        let mut got: Vec<Hit> = found.hits.clone();
        got.sort_by_key(|h| std::cmp::Reverse(h.recency()));
        let all = searcher
            .search(&query, &tantivy::collector::DocSetCollector)
            .unwrap();
        let mut expected: Vec<(i64, u64)> = all
            .into_iter()
            .map(|a| {
                let r = searcher.segment_reader(a.segment_ord);
                let f = r.fast_fields();
                (
                    f.i64("created")
                        .unwrap()
                        .first_or_default_col(0)
                        .get_val(a.doc_id),
                    f.u64("id_lo")
                        .unwrap()
                        .first_or_default_col(0)
                        .get_val(a.doc_id),
                )
            })
            .collect();
        expected.sort_by_key(|k| std::cmp::Reverse(*k));
        expected.truncate(bound);
        (
            got.iter().map(|h| h.lo).collect(),
            expected.into_iter().map(|(_, id)| id).collect(),
            found,
        )
    }

    #[test]
    fn the_newest_matches_are_found_whatever_the_order_of_documents() {
        // Oldest first in a big segment (as a build writes), matches every third post.
        let built: Vec<(u64, i64, &str)> = (0..3000)
            .map(|n| (n, 1000 + n as i64, if n % 3 == 0 { "fox" } else { "owl" }))
            .collect();
        // Later: new posts, old posts edited (added again at the end), equal creation times,
        // and a segment of posts in no order at all.
        let later = vec![
            (5000, 5000, "fox"),
            (7, 1007, "fox"),
            (5001, 5000, "fox"),
            (13, 1013, "owl"),
        ];
        let shuffled: Vec<(u64, i64, &str)> = (0..500u64)
            .map(|k| (6000 + k, 1000 + ((k * 7919) % 4000) as i64, "fox"))
            .collect();
        let (index, schema) = index_of(&[built, later, shuffled], &[2997, 5001, 6001]);
        for bound in [1, 2, 5, 12, 100, 999, 1000, 5000] {
            let (got, expected, found) = both(&index, &schema, "fox", bound);
            assert_eq!(got, expected, "bound {bound}");
            assert_eq!(
                found.complete,
                expected.len() < bound,
                "bound {bound}: complete"
            );
        }
        // Fewer matches than the bound: all of them, complete.
        let (got, expected, found) = both(&index, &schema, "owl", 5000);
        assert_eq!(got, expected);
        assert!(found.complete);
        assert!(both(&index, &schema, "cat", 10).0.is_empty());
    }

    #[test]
    fn a_bounded_search_reads_only_the_newest_part_of_an_ordered_segment() {
        // Every post matches: the bound is reached in the first window, and with the recency
        // summary nothing older is read (the answer says more may match).
        let built: Vec<(u64, i64, &str)> = (0..20_000).map(|n| (n, n as i64, "fox")).collect();
        let (index, schema) = index_of(&[built], &[]);
        let (got, expected, found) = both(&index, &schema, "fox", 10);
        assert_eq!(got, expected);
        assert_eq!(got, (19_990..20_000).rev().collect::<Vec<u64>>());
        assert!(!found.complete);
        assert_eq!(found.read, u64::from(FIRST_WINDOW));
        // A match every 100 posts: about a hundred times the bound is read, not the segment.
        let sparse: Vec<(u64, i64, &str)> = (0..20_000)
            .map(|n| (n, n as i64, if n % 100 == 0 { "fox" } else { "owl" }))
            .collect();
        let (index, schema) = index_of(&[sparse], &[]);
        let (got, expected, found) = both(&index, &schema, "fox", 10);
        assert_eq!(got, expected);
        assert!(found.read < 4_000, "read {}", found.read);
    }
}
