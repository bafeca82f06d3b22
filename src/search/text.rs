//! How text is cut into terms for search, and how a query becomes a tantivy query that matches
//! its text literally.
//!
//! Words (runs of letters and digits) are terms, and so is every other visible character on its
//! own, so `c++`, `(fox)` or `.*` are searchable as written and never act as syntax. Terms are
//! lowercased and folded to ASCII (`Crème` finds `creme`). A query's terms must appear in that
//! order (a phrase); its last word may be the start of a longer one (`garden` finds
//! `gardening`), so the search box finds as the reader types.

use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, EmptyQuery, Occur, PhrasePrefixQuery, PhraseQuery,
    Query, RegexQuery, TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption, TextFieldIndexing, TextOptions};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, TextAnalyzer, Token, TokenStream, Tokenizer,
};
use tantivy::{Index, Searcher, Term};

/// The most longer words a single word's prefix is spelled out as; beyond, a regular expression
/// over the term dictionary (which reads every posting of every such word) is used.
const MAX_PREFIX_TERMS: usize = 64;

/// The name the analyzer is registered under in each index.
pub const ANALYZER: &str = "pressroom";
/// The name the adjacent-pairs analyzer is registered under in each index.
pub const PAIRS_ANALYZER: &str = "pressroom_pairs";

/// Words of letters and digits, and each other visible character, as terms.
#[derive(Clone, Default)]
pub struct WordsAndMarks {
    token: Token,
}

pub struct WordsAndMarksStream<'a> {
    text: &'a str,
    at: usize,
    token: &'a mut Token,
}

impl Tokenizer for WordsAndMarks {
    type TokenStream<'a> = WordsAndMarksStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> WordsAndMarksStream<'a> {
        self.token.reset();
        WordsAndMarksStream {
            text,
            at: 0,
            token: &mut self.token,
        }
    }
}

impl TokenStream for WordsAndMarksStream<'_> {
    fn advance(&mut self) -> bool {
        let rest = &self.text[self.at..];
        let Some((skip, first)) = rest.char_indices().find(|(_, c)| !c.is_whitespace()) else {
            self.at = self.text.len();
            return false;
        };
        let start = self.at + skip;
        let end = if first.is_alphanumeric() {
            self.text[start..]
                .char_indices()
                .find(|(_, c)| !c.is_alphanumeric())
                .map_or(self.text.len(), |(i, _)| start + i)
        } else {
            start + first.len_utf8()
        };
        self.at = end;
        self.token.text.clear();
        self.token.text.push_str(&self.text[start..end]);
        self.token.offset_from = start;
        self.token.offset_to = end;
        self.token.position = self.token.position.wrapping_add(1);
        true
    }

    fn token(&self) -> &Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        self.token
    }
}

/// The analyzer of every searched text field.
pub fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(WordsAndMarks::default())
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// Makes the analyzers of `words_field` and `pairs_field` known to an index.
pub fn register_analyzers(index: &Index) {
    index.tokenizers().register(ANALYZER, analyzer());
    index
        .tokenizers()
        .register(PAIRS_ANALYZER, pairs_analyzer());
}

/// A searched text field: its terms with their positions, cut by `analyzer`.
pub fn words_field(stored: bool) -> TextOptions {
    let options = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(ANALYZER)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    if stored {
        options.set_stored()
    } else {
        options
    }
}

/// A field of adjacent pairs of terms (`AdjacentPairs`): which documents hold them, nothing more.
pub fn pairs_field() -> TextOptions {
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(PAIRS_ANALYZER)
            .set_index_option(IndexRecordOption::Basic),
    )
}

/// Each two adjacent terms of a text (as `analyzer` cuts it) as one term, `first second`: the
/// terms of a field that lets a phrase's candidates be found from the postings of its pairs, so
/// word positions are read only where the phrase's words are next to each other. A field value
/// is cut on its own: a pair never spans two values (nor does a phrase, tantivy leaving a gap in
/// positions between values).
#[derive(Clone)]
pub struct AdjacentPairs {
    words: TextAnalyzer,
    pairs: Vec<Token>,
}

impl Default for AdjacentPairs {
    fn default() -> Self {
        Self {
            words: analyzer(),
            pairs: Vec::new(),
        }
    }
}

pub struct AdjacentPairsStream<'a> {
    pairs: &'a mut Vec<Token>,
    next: usize,
}

impl Tokenizer for AdjacentPairs {
    type TokenStream<'a> = AdjacentPairsStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> AdjacentPairsStream<'a> {
        self.pairs.clear();
        let mut words = self.words.token_stream(text);
        let mut previous: Option<Token> = None;
        while words.advance() {
            let token = words.token().clone();
            if let Some(first) = previous.take() {
                self.pairs.push(Token {
                    offset_from: first.offset_from,
                    offset_to: token.offset_to,
                    position: self.pairs.len(),
                    text: pair_term(&first.text, &token.text),
                    position_length: 1,
                });
            }
            previous = Some(token);
        }
        AdjacentPairsStream {
            pairs: &mut self.pairs,
            next: 0,
        }
    }
}

impl TokenStream for AdjacentPairsStream<'_> {
    fn advance(&mut self) -> bool {
        self.next += 1;
        self.next <= self.pairs.len()
    }

    fn token(&self) -> &Token {
        &self.pairs[self.next - 1]
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.pairs[self.next - 1]
    }
}

/// The analyzer of the adjacent-pairs fields.
pub fn pairs_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(AdjacentPairs::default()).build()
}

/// Two adjacent terms as one (a space is never part of a term).
fn pair_term(first: &str, second: &str) -> String {
    format!("{first} {second}")
}

/// A query's terms, each with whether it is a word (rather than a mark).
pub fn terms_of(text: &str) -> Vec<(String, bool)> {
    let mut analyzer = analyzer();
    let mut stream = analyzer.token_stream(text);
    let mut out = Vec::new();
    while stream.advance() {
        let t = stream.token().text.clone();
        let word = t.chars().all(char::is_alphanumeric);
        out.push((t, word));
    }
    out
}

/// The words of `field` starting with `prefix` in the searcher's segments (the word itself
/// included), when there are at most `MAX_PREFIX_TERMS`.
fn words_starting(searcher: &Searcher, field: Field, prefix: &str) -> Option<Vec<Term>> {
    let mut words: Vec<Vec<u8>> = Vec::new();
    for reader in searcher.segment_readers() {
        let index = reader.inverted_index(field).ok()?;
        let mut stream = index
            .terms()
            .range()
            .ge(prefix.as_bytes())
            .into_stream()
            .ok()?;
        while stream.advance() {
            let key = stream.key();
            if !key.starts_with(prefix.as_bytes()) {
                break;
            }
            if !words.iter().any(|w| w == key) {
                if words.len() == MAX_PREFIX_TERMS {
                    return None;
                }
                words.push(key.to_vec());
            }
        }
    }
    Some(
        words
            .iter()
            .filter_map(|w| std::str::from_utf8(w).ok())
            .map(|w| Term::from_field_text(field, w))
            .collect(),
    )
}

/// Any document holding a word that starts with `prefix`, all scoring 1: the words spelled out
/// when a searcher is given and they are few (each document is then found through its words'
/// postings, as any term), otherwise a regular expression.
fn prefix_of(searcher: Option<&Searcher>, field: Field, prefix: &str) -> Option<Box<dyn Query>> {
    if let Some(words) = searcher.and_then(|s| words_starting(s, field, prefix)) {
        let any: Vec<(Occur, Box<dyn Query>)> = words
            .into_iter()
            .map(|t| {
                let q: Box<dyn Query> = Box::new(TermQuery::new(t, IndexRecordOption::Basic));
                (Occur::Should, q)
            })
            .collect();
        return Some(Box::new(ConstScoreQuery::new(
            Box::new(BooleanQuery::new(any)),
            1.0,
        )));
    }
    let regex = RegexQuery::from_pattern(&format!("{}.*", regex_literal(prefix)), field).ok()?;
    Some(Box::new(regex))
}

/// The documents holding every adjacent pair of the phrase in `pairs` (the last pair with any
/// longer word when the last term is a word), scoring 0; `None` when no pair can narrow the
/// phrase (a single term, or a last word with too many longer words and no other pair).
fn pairs_of(
    searcher: Option<&Searcher>,
    pairs: Field,
    terms: &[(String, bool)],
) -> Option<Box<dyn Query>> {
    let mut all: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    for (i, w) in terms.windows(2).enumerate() {
        let pair = pair_term(&w[0].0, &w[1].0);
        let prefix = i + 2 == terms.len() && w[1].1;
        let q: Box<dyn Query> = if prefix {
            match searcher.and_then(|s| words_starting(s, pairs, &pair)) {
                // No such pair anywhere: the phrase matches nothing.
                Some(words) if words.is_empty() => Box::new(EmptyQuery),
                Some(words) => Box::new(BooleanQuery::new(
                    words
                        .into_iter()
                        .map(|t| {
                            let q: Box<dyn Query> =
                                Box::new(TermQuery::new(t, IndexRecordOption::Basic));
                            (Occur::Should, q)
                        })
                        .collect(),
                )),
                None => continue,
            }
        } else {
            Box::new(TermQuery::new(
                Term::from_field_text(pairs, &pair),
                IndexRecordOption::Basic,
            ))
        };
        all.push((Occur::Must, q));
    }
    (!all.is_empty()).then(|| {
        Box::new(ConstScoreQuery::new(Box::new(BooleanQuery::new(all)), 0.0)) as Box<dyn Query>
    })
}

/// Matches the terms as a phrase in `field`, the last word as a prefix (its longer words looked
/// up in `searcher`'s term dictionaries when given). With the field's adjacent-pairs field, a
/// phrase's positions are read only in documents holding all its pairs.
pub fn phrase_in(
    searcher: Option<&Searcher>,
    field: Field,
    pairs: Option<Field>,
    terms: &[(String, bool)],
) -> Option<Box<dyn Query>> {
    let (last, last_is_word) = terms.last()?;
    let tantivy_terms: Vec<Term> = terms
        .iter()
        .map(|(t, _)| Term::from_field_text(field, t))
        .collect();
    if terms.len() == 1 {
        let exact: Box<dyn Query> = Box::new(TermQuery::new(
            tantivy_terms[0].clone(),
            IndexRecordOption::WithFreqs,
        ));
        if !last_is_word {
            return Some(exact);
        }
        // The word itself ranks by relevance; longer words that start with it match too.
        let prefix = prefix_of(searcher, field, last)?;
        return Some(Box::new(BooleanQuery::new(vec![
            (Occur::Should, exact),
            (Occur::Should, Box::new(BoostQuery::new(prefix, 0.5))),
        ])));
    }
    let phrase: Box<dyn Query> = if *last_is_word {
        Box::new(PhrasePrefixQuery::new(tantivy_terms))
    } else {
        Box::new(PhraseQuery::new(tantivy_terms))
    };
    match pairs.and_then(|p| pairs_of(searcher, p, terms)) {
        Some(narrow) => Some(Box::new(BooleanQuery::new(vec![
            (Occur::Must, narrow),
            (Occur::Must, phrase),
        ]))),
        None => Some(phrase),
    }
}

/// A term as a regular expression matching only itself.
fn regex_literal(term: &str) -> String {
    let mut out = String::with_capacity(term.len());
    for c in term.chars() {
        if c.is_alphanumeric() {
            out.push(c);
        } else {
            out.push('\\');
            out.push(c);
        }
    }
    out
}

/// A searched text field: the field, its adjacent-pairs field if it has one, and its weight.
pub type Searched = (Field, Option<Field>, f32);

/// The query's phrase in any of these fields (each with its weight); `None` when the text has
/// no terms. With a searcher, a last word's longer words are looked up in its segments.
pub fn in_any(
    searcher: Option<&Searcher>,
    fields: &[Searched],
    text: &str,
) -> Option<Box<dyn Query>> {
    let terms = terms_of(text);
    if terms.is_empty() {
        return None;
    }
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    for (field, pairs, weight) in fields {
        if let Some(q) = phrase_in(searcher, *field, *pairs, &terms) {
            clauses.push((Occur::Should, Box::new(BoostQuery::new(q, *weight))));
        }
    }
    (!clauses.is_empty()).then(|| Box::new(BooleanQuery::new(clauses)) as Box<dyn Query>)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_marks_are_terms_lowercased_and_folded() {
        assert_eq!(
            terms_of("C++ Tips: (fox) Crème.*"),
            [
                ("c", true),
                ("+", false),
                ("+", false),
                ("tips", true),
                (":", false),
                ("(", false),
                ("fox", true),
                (")", false),
                ("creme", true),
                (".", false),
                ("*", false),
            ]
            .map(|(t, w)| (t.to_string(), w))
        );
        assert!(terms_of("   ").is_empty());
        assert_eq!(terms_of("\"\\").len(), 2);
    }

    #[test]
    fn adjacent_pairs_stay_within_a_value() {
        let mut pairs = pairs_analyzer();
        let mut out = Vec::new();
        {
            let mut stream = pairs.token_stream("Crème (fox) c++");
            while stream.advance() {
                out.push(stream.token().text.clone());
            }
        }
        assert_eq!(
            out,
            ["creme (", "( fox", "fox )", ") c", "c +", "+ +"].map(String::from)
        );
        let mut one = pairs.token_stream("alone");
        assert!(!one.advance());
    }

    /// Over a site of random texts (words, marks, several tag values), each phrase narrowed by
    /// its pairs matches exactly the documents the phrase alone matches.
    #[test]
    fn pairs_narrow_a_phrase_without_changing_its_matches() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        use tantivy::collector::DocSetCollector;
        use tantivy::schema::Schema;
        use tantivy::TantivyDocument;

        let words = [
            "river", "rivers", "stone", "stones", "st", "garden", "c", "+", "(", ".",
        ];
        let mut rng = StdRng::seed_from_u64(11);
        let mut text = |n: usize| {
            (0..n)
                .map(|_| words[rng.gen_range(0..words.len())])
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut s = Schema::builder();
        let tags = s.add_text_field("tags", words_field(false));
        let tags_pairs = s.add_text_field("tags_pairs", pairs_field());
        let index = Index::create_in_ram(s.build());
        index.tokenizers().register(ANALYZER, analyzer());
        index
            .tokenizers()
            .register(PAIRS_ANALYZER, pairs_analyzer());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        // Three values each, so phrases and pairs could span two values (neither may).
        for _ in 0..400 {
            let values: Vec<String> = (0..3).map(|_| text(4)).collect();
            let mut doc = TantivyDocument::default();
            for v in &values {
                doc.add_text(tags, v);
                doc.add_text(tags_pairs, v);
            }
            writer.add_document(doc).unwrap();
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let matches = |q: &dyn Query| searcher.search(q, &DocSetCollector).unwrap();
        let mut seen_some = 0;
        for query in [
            "river stone",
            "river st",
            "river s",
            "stone (",
            "c + +",
            "( river",
            "river rivers st",
            "garden . garden",
            "st",
            "stones stones stones",
            "river ri",
        ] {
            let terms = terms_of(query);
            let plain = phrase_in(Some(&searcher), tags, None, &terms).unwrap();
            let narrowed = phrase_in(Some(&searcher), tags, Some(tags_pairs), &terms).unwrap();
            let expected = matches(plain.as_ref());
            assert_eq!(matches(narrowed.as_ref()), expected, "{query}");
            seen_some += usize::from(!expected.is_empty());
        }
        assert!(
            seen_some >= 8,
            "the site should hold most phrases: {seen_some}"
        );
    }
}
