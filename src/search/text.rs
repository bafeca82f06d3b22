//! How text is cut into terms for search, and how a query becomes a tantivy query that matches
//! its text literally.
//!
//! Words (runs of letters and digits) are terms, and so is every other visible character on its
//! own, so `c++`, `(fox)` or `.*` are searchable as written and never act as syntax. Terms are
//! lowercased and folded to ASCII (`Crème` finds `creme`). A query's terms must appear in that
//! order (a phrase); its last word may be the start of a longer one (`garden` finds
//! `gardening`), so the search box finds as the reader types.

use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, Occur, PhrasePrefixQuery, PhraseQuery, Query,
    RegexQuery, TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, TextAnalyzer, Token, TokenStream, Tokenizer,
};
use tantivy::{Searcher, Term};

/// The most longer words a single word's prefix is spelled out as; beyond, a regular expression
/// over the term dictionary (which reads every posting of every such word) is used.
const MAX_PREFIX_TERMS: usize = 64;

/// The name the analyzer is registered under in each index.
pub const ANALYZER: &str = "pressroom";

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

/// Matches the terms as a phrase in `field`, the last word as a prefix (its longer words looked
/// up in `searcher`'s term dictionaries when given).
pub fn phrase_in(
    searcher: Option<&Searcher>,
    field: Field,
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
    if *last_is_word {
        Some(Box::new(PhrasePrefixQuery::new(tantivy_terms)))
    } else {
        Some(Box::new(PhraseQuery::new(tantivy_terms)))
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

/// The query's phrase in any of these fields (each with its weight); `None` when the text has
/// no terms. With a searcher, a single word's longer words are looked up in its segments.
pub fn in_any(
    searcher: Option<&Searcher>,
    fields: &[(Field, f32)],
    text: &str,
) -> Option<Box<dyn Query>> {
    let terms = terms_of(text);
    if terms.is_empty() {
        return None;
    }
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    for (field, weight) in fields {
        if let Some(q) = phrase_in(searcher, *field, &terms) {
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
}
