//! Prose for people: sentences wrapped at words to the terminal's width, and Markdown (the
//! rules' documentation, `lint --explain`) rendered for the terminal or as plain text.
//!
//! Wrapping counts display widths (a CJK character is two columns) and ignores ANSI
//! styling, so a styled word is measured as it shows. Styles are applied word by word: a
//! line break never falls inside one. Text from a rollout is cleaned before it gets here
//! ([`super::sanitize::clean`]).

use std::borrow::Cow;

use owo_colors::OwoColorize;
use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use super::fit;
use super::sanitize::clean;

/// Fewer columns than this for the text after a hanging indent, and the indent shrinks:
/// text squeezed into a narrow strip reads worse than text under its label.
const MIN_TEXT: usize = 30;

/// `text` wrapped at spaces (never at a hyphen: `file.no-final-newline` stays whole) into
/// lines of at most `width` display columns: the first line starts with `first`, the
/// others with `hang` spaces (fewer when the terminal is too narrow for them). A word
/// wider than a line is split, so nothing is lost and no line is wider than `width`.
pub fn wrap(first: &str, text: &str, hang: usize, width: usize) -> Vec<String> {
    let width = width.max(1);
    let hang = if hang + MIN_TEXT <= width {
        hang
    } else {
        hang.min(width / 4)
    };
    let indent = " ".repeat(hang);
    let options = textwrap::Options::new(width)
        .initial_indent(first)
        .subsequent_indent(&indent)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .break_words(true);
    textwrap::wrap(text, options)
        .into_iter()
        .map(Cow::into_owned)
        .collect()
}

/// How a run of inline text is shown.
#[derive(Debug, Clone, Copy, Default)]
struct Look {
    strong: bool,
    emphasis: bool,
    code: bool,
}

/// A Markdown renderer for the terminal (`color`: styles; `width`: wrap to it) or for a
/// pipe (plain text, a paragraph a line).
struct Render {
    width: Option<usize>,
    color: bool,
    out: Vec<String>,
    /// The paragraph being gathered, styled.
    para: String,
    look: Look,
    /// The open lists: the next number of an ordered one, `None` for bullets.
    lists: Vec<Option<u64>>,
    /// The marker of the list item whose first paragraph is being gathered.
    marker: Option<String>,
    /// Inside a code block: its lines are kept as they are.
    code_block: bool,
    /// A link's target, shown after its text when it says more than the text.
    link: Option<String>,
    link_text: String,
}

impl Render {
    fn new(width: Option<usize>, color: bool) -> Render {
        Render {
            width,
            color,
            out: Vec::new(),
            para: String::new(),
            look: Look::default(),
            lists: Vec::new(),
            marker: None,
            code_block: false,
            link: None,
            link_text: String::new(),
        }
    }

    /// A word in the current look.
    fn styled(&self, word: &str) -> String {
        let look = self.look;
        if !self.color {
            return word.to_string();
        }
        let mut s = word.to_string();
        if look.code {
            s = s.cyan().to_string();
        }
        if look.emphasis {
            s = s.italic().to_string();
        }
        if look.strong {
            s = s.bold().to_string();
        }
        s
    }

    /// Inline text, styled word by word.
    fn text(&mut self, text: &str) {
        let text = clean(text);
        if self.link.is_some() {
            self.link_text.push_str(&text);
        }
        let mut first = true;
        for word in text.split(' ') {
            if !first {
                self.para.push(' ');
            }
            first = false;
            if !word.is_empty() {
                let styled = self.styled(word);
                self.para.push_str(&styled);
            }
        }
    }

    /// A code span: in plain text between backticks, as the rest of rollscope quotes code;
    /// styled instead where color is on.
    fn code(&mut self, code: &str) {
        if self.color {
            self.look.code = true;
            self.text(code);
            self.look.code = false;
        } else {
            self.text(&format!("`{code}`"));
        }
    }

    /// The indent of the open lists' text.
    fn list_indent(&self) -> usize {
        self.lists
            .iter()
            .map(|l| match l {
                Some(n) => n.to_string().len() + 2,
                None => 2,
            })
            .sum()
    }

    /// The gathered paragraph as lines: wrapped at the width under its list item's text,
    /// or whole.
    fn flush(&mut self) {
        let para = std::mem::take(&mut self.para);
        let para = para.trim();
        let marker = self.marker.take();
        if para.is_empty() && marker.is_none() {
            return;
        }
        let indent = self.list_indent();
        let first = match marker {
            Some(m) => format!("{}{m}", " ".repeat(indent.saturating_sub(fit::width(&m)))),
            None => " ".repeat(indent),
        };
        match self.width {
            Some(w) => self.out.extend(wrap(&first, para, indent, w)),
            None => self.out.push(format!("{first}{para}")),
        }
    }

    /// A blank line between blocks (none at the start, never two).
    fn gap(&mut self) {
        if self.out.last().is_some_and(|l| !l.is_empty()) {
            self.out.push(String::new());
        }
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            // A list item's first paragraph keeps its marker; the others stand apart.
            Event::Start(Tag::Paragraph) if self.marker.is_none() && !self.tight_item() => {
                self.gap();
            }
            Event::End(TagEnd::Paragraph) => self.flush(),
            Event::Start(Tag::Heading { .. }) => {
                self.gap();
                self.look.strong = true;
            }
            Event::End(TagEnd::Heading(_)) => {
                self.look.strong = false;
                self.flush();
            }
            Event::Start(Tag::List(start)) => {
                self.flush();
                if self.lists.is_empty() {
                    self.gap();
                }
                self.lists.push(start);
            }
            Event::End(TagEnd::List(_)) => {
                self.flush();
                self.lists.pop();
            }
            Event::Start(Tag::Item) => {
                self.flush();
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        m
                    }
                    _ => "- ".to_string(),
                };
                self.marker = Some(marker);
            }
            Event::End(TagEnd::Item) => self.flush(),
            Event::Start(Tag::CodeBlock(_)) => {
                self.flush();
                self.gap();
                self.code_block = true;
            }
            Event::End(TagEnd::CodeBlock) => self.code_block = false,
            Event::Start(Tag::Emphasis) => self.look.emphasis = true,
            Event::End(TagEnd::Emphasis) => self.look.emphasis = false,
            Event::Start(Tag::Strong) => self.look.strong = true,
            Event::End(TagEnd::Strong) => self.look.strong = false,
            Event::Start(Tag::Link { dest_url, .. }) => {
                self.link = Some(dest_url.into_string());
                self.link_text.clear();
            }
            Event::End(TagEnd::Link) => {
                if let Some(url) = self.link.take() {
                    if url != self.link_text && !url.starts_with('#') {
                        self.text(&format!(" ({url})"));
                    }
                }
            }
            Event::Text(t) if self.code_block => {
                let indent = " ".repeat(self.list_indent() + 4);
                for line in t.lines() {
                    let line = format!("{indent}{}", clean(line));
                    let line = match self.width {
                        Some(w) => fit::cut_end(
                            &line,
                            w,
                            super::glyphs::ellipsis(super::glyphs::unicode()),
                        ),
                        None => line,
                    };
                    self.out.push(line);
                }
            }
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => self.text(&t),
            Event::Code(c) => self.code(&c),
            Event::SoftBreak => self.text(" "),
            Event::HardBreak => self.flush(),
            _ => {}
        }
    }

    /// Inside a list item still gathering its first paragraph (a loose item's paragraph
    /// follows its marker).
    fn tight_item(&self) -> bool {
        !self.lists.is_empty() && !self.para.is_empty()
    }
}

/// `markdown` rendered: at a terminal (`width`) wrapped at words to it, styled where
/// `color` is on (bold, italics, code without its backticks); else plain text, a paragraph
/// a line, code between backticks. Blocks are separated by one blank line.
pub fn markdown(markdown: &str, width: Option<usize>, color: bool) -> String {
    let mut r = Render::new(width, color);
    for event in Parser::new(markdown) {
        r.event(event);
    }
    r.flush();
    let mut text = r.out.join("\n");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_words_whole_under_a_hanging_indent() {
        let text = "one two three four five six seven eight nine ten";
        let lines = wrap("  = help: ", text, 10, 40);
        assert_eq!(
            lines,
            [
                "  = help: one two three four five six",
                "          seven eight nine ten"
            ]
        );
        // Too narrow for the indent and the text: the indent gives way.
        let lines = wrap("  = help: ", text, 10, 20);
        assert_eq!(
            lines.get(1).map(String::as_str),
            Some("     three four five")
        );
        // A word wider than the line is split: no line is wider.
        let lines = wrap("", "abcdefghij", 0, 4);
        assert!(lines.iter().all(|l| fit::width(l) <= 4), "{lines:?}");
    }

    #[test]
    fn styled_words_are_measured_as_they_show() {
        let text = markdown("**Checks.** one two three", Some(14), true);
        let plain: Vec<String> = text
            .lines()
            .map(|l| clean(l).replace("[1m", "").replace("[22m", ""))
            .collect();
        assert_eq!(plain, ["Checks. one", "two three"], "{text:?}");
    }

    #[test]
    fn plain_text_keeps_the_words_and_the_code_marks() {
        let md =
            "**Checks.** Line 1 starts\nwith a mark (`EF BB BF`).\n\n**Fix.** Remove *it*.\n\n\
                  - the one\n  expected;\n- a lower one\n";
        assert_eq!(
            markdown(md, None, false),
            "Checks. Line 1 starts with a mark (`EF BB BF`).\n\nFix. Remove it.\n\n\
             - the one expected;\n- a lower one\n"
        );
        let wrapped = markdown(md, Some(20), false);
        assert!(wrapped.contains("\n- the one expected;\n"), "{wrapped}");
        assert!(wrapped.lines().all(|l| fit::width(l) <= 20), "{wrapped}");
    }

    #[test]
    fn a_list_item_wraps_under_its_text() {
        let text = markdown("Intro:\n\n- alpha beta gamma delta\n", Some(12), false);
        assert_eq!(text, "Intro:\n\n- alpha beta\n  gamma\n  delta\n");
    }
}
