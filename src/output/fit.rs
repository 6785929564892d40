//! Fitting a table to a width: which columns stay, how wide each is, and how a cell is cut
//! to its column.
//!
//! A table that is too wide first loses its least important columns, until what is left
//! fits at its narrowest; then the columns that can give way (texts, paths, bars) are
//! narrowed, the least important first, as far as the width needs and no further. A text
//! is cut at its end; a path in its middle, at one place for the whole column chosen so
//! that no two paths of the column look alike. Widths are display widths (a CJK character
//! takes two columns; a combining mark none).
//!
//! A column's width is set by its typical values, not by one rare long one: a text column
//! is first cut to the width that holds [`TYPICAL`] of its cells (its long tail cut), and
//! is never dropped for want of more than that, so an `unknown (inherited)` among hundreds
//! of `ok`, or one long tool name, starves no other column.

use std::collections::HashSet;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// How a column gives way when the table is too wide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Give {
    /// Never narrowed (numbers, times, names): shown whole or dropped.
    Fixed,
    /// Cut at its end, down to [`TEXT_MIN`].
    Text,
    /// Cut in its middle, down to the narrowest width at which its paths stay apart.
    Path,
    /// A bar drawn to whatever width the column gets, down to [`BAR_MIN`].
    Bar,
}

/// The narrowest a text column is cut to.
pub const TEXT_MIN: usize = 16;
/// The narrowest the text a table is read for ([`Need::min`] of a wide column) is cut to,
/// lesser columns dropped first.
pub const WIDE_MIN: usize = 40;
/// The narrowest a path column is cut to, if its paths stay apart at that width.
pub const PATH_MIN: usize = 24;
/// A bar column's width when there is room, and its narrowest.
pub const BAR_WIDTH: usize = 20;
pub const BAR_MIN: usize = 6;

/// What the planner knows of a column.
#[derive(Debug, Clone)]
pub struct Need {
    pub give: Give,
    /// Importance: the lowest goes first.
    pub rank: u8,
    /// The widest cell, header included.
    pub natural: usize,
    /// The narrowest it may be cut to (never above `typical`).
    pub min: usize,
    /// The width that holds most of its cells ([`typical`]); a text wider than that is cut
    /// there first. `natural` for a column that is never cut.
    pub typical: usize,
}

/// The share of a column's cells its typical width holds whole.
pub const TYPICAL: f64 = 0.9;

/// The typical width of cells of these `widths`: the narrowest that holds [`TYPICAL`] of
/// them (a rare long one is left out); 0 for none.
pub fn typical(mut widths: Vec<usize>) -> usize {
    widths.sort_unstable();
    // The nearest rank: of 20 cells, the 18th narrowest; of 3, the widest.
    let rank = (widths.len() as f64 * TYPICAL).ceil() as usize;
    widths.get(rank.saturating_sub(1)).copied().unwrap_or(0)
}

/// The width the borders take: `│ a │ b │` is 3 per column and 1.
pub fn chrome(columns: usize) -> usize {
    3 * columns + 1
}

/// Plan a table: of the columns `shown` (indices into `needs`, in the order shown), which
/// stay and how wide each is, within `budget` display columns when there is one. When
/// `keep_all` (the user chose the columns), none is dropped, even if the table is then
/// wider than the budget.
pub fn plan(
    needs: &[Need],
    shown: &[usize],
    budget: Option<usize>,
    keep_all: bool,
) -> Vec<(usize, usize)> {
    // The shown columns, each with what it needs (`shown` holds indices into `needs`).
    let mut keep: Vec<(usize, &Need)> = shown
        .iter()
        .filter_map(|&i| Some((i, needs.get(i)?)))
        .collect();
    let Some(budget) = budget else {
        // No width to fit: every column whole, a long text wrapped at `WRAP` (not cut).
        return keep
            .iter()
            .map(|&(i, n)| {
                let w = match n.give {
                    Give::Text => n.natural.min(WRAP.max(n.min)),
                    _ => n.natural,
                };
                (i, w)
            })
            .collect();
    };
    let narrowest = |keep: &[(usize, &Need)]| -> usize {
        keep.iter().map(|(_, n)| n.min).sum::<usize>() + chrome(keep.len())
    };
    let mut dropped = Vec::new();
    while !keep_all && keep.len() > 1 && narrowest(&keep) > budget {
        // The least important column goes; of equals, the rightmost.
        let Some((at, _)) = keep
            .iter()
            .enumerate()
            .min_by_key(|&(at, (_, n))| (n.rank, std::cmp::Reverse(at)))
        else {
            break;
        };
        dropped.push(keep.remove(at));
    }
    let mut widths: Vec<usize> = keep.iter().map(|(_, n)| n.natural).collect();
    let total = widths.iter().sum::<usize>() + chrome(keep.len());
    let mut excess = total.saturating_sub(budget);
    // Long tails give first: a text wider than its typical width is cut to it, the least
    // important first.
    let mut tails: Vec<(usize, &Need)> = keep
        .iter()
        .enumerate()
        .filter(|(_, (_, n))| n.give == Give::Text && n.typical < n.natural)
        .map(|(at, &(_, n))| (at, n))
        .collect();
    tails.sort_by_key(|&(at, n)| (n.rank, std::cmp::Reverse(at)));
    for (at, n) in tails {
        let Some(w) = widths.get_mut(at) else {
            continue;
        };
        let give = w.saturating_sub(n.typical.max(n.min)).min(excess);
        *w -= give;
        excess -= give;
    }
    // Then paths (cut in the middle, a path still names its file), then texts and
    // bars, the least important first.
    let mut order: Vec<(usize, &Need)> = keep
        .iter()
        .enumerate()
        .filter(|(_, (_, n))| n.give != Give::Fixed)
        .map(|(at, &(_, n))| (at, n))
        .collect();
    order.sort_by_key(|&(at, n)| (n.give != Give::Path, n.rank, std::cmp::Reverse(at)));
    for (at, n) in order {
        if excess == 0 {
            break;
        }
        // `widths` has one entry a kept column.
        let Some(w) = widths.get_mut(at) else {
            continue;
        };
        let give = w.saturating_sub(n.min).min(excess);
        *w -= give;
        excess -= give;
    }
    // A column dropped to make room may fit in what is left over: the most important back
    // first, in its place.
    let mut plan: Vec<(usize, usize)> = keep.into_iter().map(|(i, _)| i).zip(widths).collect();
    let used =
        |plan: &[(usize, usize)]| plan.iter().map(|c| c.1).sum::<usize>() + chrome(plan.len());
    dropped.sort_by_key(|&(_, n)| std::cmp::Reverse(n.rank));
    for (i, n) in dropped {
        let room = budget.saturating_sub(used(&plan) + 3);
        if n.min > room {
            continue;
        }
        let w = n.natural.min(room);
        let at = plan
            .iter()
            .position(|&(j, _)| {
                shown.iter().position(|&s| s == j) > shown.iter().position(|&s| s == i)
            })
            .unwrap_or(plan.len());
        plan.insert(at, (i, w));
    }
    plan
}

/// A text column without a width to fit wraps at this many display columns.
pub const WRAP: usize = 100;

/// The display width of `s`.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// The longest start of `chars` that is at most `w` display columns, measured as a whole
/// (an emoji and its variation selector are two columns together, one apart).
fn fitting(chars: impl Iterator<Item = char>, w: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in chars {
        out.push(c);
        // ASCII adds its own width; anything else may change its neighbour's.
        used = if c.is_ascii() {
            used + c.width().unwrap_or(0)
        } else {
            width(&out)
        };
        if used > w {
            out.pop();
            break;
        }
    }
    out
}

/// `s` cut at its end to `w` display columns, the cut marked with `ellipsis`.
pub fn cut_end(s: &str, w: usize, ellipsis: &str) -> String {
    if width(s) <= w {
        return s.to_string();
    }
    let room = w.saturating_sub(width(ellipsis));
    let mut out = fitting(s.chars(), room);
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    out.push_str(ellipsis);
    out
}

/// `s` cut to `w` display columns by taking out its middle: `head` columns from its start,
/// the rest from its end, the cut marked with `ellipsis`.
pub fn cut_middle(s: &str, w: usize, head: usize, ellipsis: &str) -> String {
    if width(s) <= w {
        return s.to_string();
    }
    let room = w.saturating_sub(width(ellipsis));
    let head = head.min(room);
    let mut start = fitting(s.chars(), head);
    let end: String = {
        let rev = fitting(s.chars().rev(), room - width(&start));
        rev.chars().rev().collect()
    };
    start.push_str(ellipsis);
    start.push_str(&end);
    start
}

/// `s` wrapped into lines of at most `w` display columns, at spaces where it can (a word
/// longer than a line is split): nothing is lost.
pub fn wrap(s: &str, w: usize) -> String {
    if width(s) <= w || w == 0 {
        return s.to_string();
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut line_w = 0;
    for word in s.split(' ') {
        let sep = usize::from(!line.is_empty());
        let word_w = width(word);
        if line_w + sep + word_w <= w {
            if sep == 1 {
                line.push(' ');
            }
            line.push_str(word);
            line_w += sep + word_w;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        let mut rest = word;
        while width(rest) > w {
            let part = fitting(rest.chars(), w);
            if part.is_empty() {
                break;
            }
            rest = &rest[part.len()..];
            lines.push(part);
        }
        line.push_str(rest);
        line_w = width(rest);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.join("\n")
}

/// Where a path column of width `w` takes out its middle: the head to keep, so that no two
/// of the different `paths` look alike once cut; `None` when no cut at this width keeps
/// them apart. A third of the width is kept from the start when that is enough (a
/// rollout's name ends in its thread id, which tells most files apart); else the head
/// nearest to it that tells every pair apart.
pub fn path_head(paths: &HashSet<&str>, w: usize, ellipsis: &str) -> Option<usize> {
    let room = w.checked_sub(width(ellipsis))?;
    let preferred = room / 3;
    let apart = |head: usize| {
        let mut seen = HashSet::with_capacity(paths.len());
        paths
            .iter()
            .all(|p| seen.insert(cut_middle(p, w, head, ellipsis)))
    };
    let mut heads: Vec<usize> = (0..=room).collect();
    heads.sort_by_key(|h| h.abs_diff(preferred));
    heads.into_iter().find(|&h| apart(h))
}

/// The narrowest width, from [`PATH_MIN`] up to `natural`, at which the column's paths
/// stay apart when cut.
pub fn path_min(paths: &HashSet<&str>, natural: usize, ellipsis: &str) -> usize {
    (PATH_MIN.min(natural)..natural)
        .find(|&w| path_head(paths, w, ellipsis).is_some())
        .unwrap_or(natural)
}

/// A bar of `fraction` (0 to 1) of `w` columns: eighths in Unicode, `#` in ASCII.
pub fn bar(fraction: f64, w: usize, unicode: bool) -> String {
    let f = if fraction.is_finite() {
        fraction.clamp(0.0, 1.0)
    } else {
        0.0
    };
    if !unicode {
        let n = (f * w as f64).round() as usize;
        return "#".repeat(n);
    }
    let eighths = (f * (w * 8) as f64).round() as usize;
    let mut s = "█".repeat(eighths / 8);
    const PARTS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    #[allow(
        clippy::indexing_slicing,
        reason = "`% 8` is below 8, the table's length"
    )]
    s.push_str(PARTS[eighths % 8]);
    // Anything above zero shows.
    if s.is_empty() && f > 0.0 {
        s.push('▏');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn need(give: Give, rank: u8, natural: usize, min: usize) -> Need {
        Need {
            give,
            rank,
            natural,
            min,
            typical: natural,
        }
    }

    #[test]
    fn a_typical_width_leaves_out_the_rare_long_cells() {
        assert_eq!(typical(vec![]), 0);
        assert_eq!(typical(vec![2, 19, 2]), 19);
        let mut w = vec![2; 40];
        w.extend([19, 19]);
        assert_eq!(typical(w), 2);
        let w: Vec<usize> = (1..=20).collect();
        assert_eq!(typical(w), 18);
    }

    #[test]
    fn a_rare_long_text_is_cut_to_its_typical_width_before_other_texts_narrow() {
        // A status of `ok`s and one `unknown (inherited)`; a command of 60 columns.
        let status = Need {
            typical: 6,
            min: 6,
            ..need(Give::Text, 6, 19, 6)
        };
        let command = need(Give::Text, 8, 60, 16);
        let needs = [need(Give::Fixed, 9, 8, 8), status, command];
        // 8 + 19 + 60 + 10 = 97; at 80 the status gives its tail (13), the command 4.
        assert_eq!(
            plan(&needs, &[0, 1, 2], Some(80), false),
            [(0, 8), (1, 6), (2, 56)]
        );
        // Without a width, nothing is cut.
        assert_eq!(
            plan(&needs, &[0, 1, 2], None, false),
            [(0, 8), (1, 19), (2, WRAP.min(60))]
        );
    }

    #[test]
    fn a_column_is_never_dropped_for_its_rare_long_cells() {
        // At 40: a name column whose min were its natural 29 would leave no room for the
        // command; cut to its typical 12 both stay.
        let name = Need {
            typical: 12,
            min: 12,
            ..need(Give::Text, 6, 29, 12)
        };
        let needs = [name, need(Give::Text, 8, 60, 16)];
        let p = plan(&needs, &[0, 1], Some(40), false);
        assert_eq!(p, [(0, 12), (1, 21)]);
    }

    #[test]
    fn a_shown_column_with_no_need_is_left_out() {
        // `Table` shows only its own columns; an index past `needs` used to panic.
        let needs = [need(Give::Fixed, 5, 10, 10)];
        assert_eq!(plan(&needs, &[0, 3], Some(80), false), [(0, 10)]);
        assert_eq!(plan(&needs, &[3, 0], None, false), [(0, 10)]);
    }

    #[test]
    fn a_table_that_fits_keeps_every_column_at_its_natural_width() {
        let needs = [need(Give::Fixed, 5, 10, 10), need(Give::Text, 5, 20, 16)];
        assert_eq!(plan(&needs, &[0, 1], Some(80), false), [(0, 10), (1, 20)]);
        assert_eq!(plan(&needs, &[0, 1], None, false), [(0, 10), (1, 20)]);
    }

    #[test]
    fn texts_narrow_before_any_column_is_dropped() {
        // 10 + 40 + 7 chrome = 57; the budget is 40: the text gives 17.
        let needs = [need(Give::Fixed, 1, 10, 10), need(Give::Text, 9, 40, 16)];
        assert_eq!(plan(&needs, &[0, 1], Some(40), false), [(0, 10), (1, 23)]);
    }

    #[test]
    fn the_least_important_column_goes_first_then_texts_narrow() {
        let needs = [
            need(Give::Fixed, 9, 10, 10),
            need(Give::Fixed, 1, 30, 30),
            need(Give::Fixed, 3, 30, 30),
            need(Give::Text, 5, 50, 16),
        ];
        let p = plan(&needs, &[0, 1, 2, 3], Some(60), false);
        // Rank 1 goes; 10 + 30 + 16 + 13 = 69 > 60: rank 3 goes too; then the text gives
        // what is left over: 10 + 43 + 7 = 60.
        assert_eq!(p, [(0, 10), (3, 43)]);
        let total: usize = p.iter().map(|c| c.1).sum::<usize>() + chrome(p.len());
        assert_eq!(total, 60);
    }

    #[test]
    fn columns_the_user_chose_are_never_dropped() {
        let needs = [need(Give::Fixed, 9, 50, 50), need(Give::Fixed, 1, 50, 50)];
        assert_eq!(plan(&needs, &[1, 0], Some(40), true), [(1, 50), (0, 50)]);
    }

    #[test]
    fn cuts_count_display_columns() {
        assert_eq!(cut_end("abcdef", 4, "…"), "abc…");
        assert_eq!(cut_end("abc", 4, "…"), "abc");
        assert_eq!(cut_end("日本語テキスト", 7, "…"), "日本語…");
        assert_eq!(width(&cut_end("日本語テキスト", 6, "…")), 5);
        assert_eq!(cut_end("abcdef", 5, "..."), "ab...");
        assert_eq!(cut_middle("abcdefghij", 7, 2, "…"), "ab…ghij");
        assert_eq!(cut_middle("abc", 7, 2, "…"), "abc");
    }

    #[test]
    fn paths_with_the_same_tail_stay_apart_when_cut() {
        let a = "team-a/sessions/2026/11/29/rollout-2026-11-29T12-00-30-01a2272d.jsonl";
        let b = "team-b/sessions/2026/11/29/rollout-2026-11-29T12-00-30-01a2272d.jsonl";
        let paths: HashSet<&str> = [a, b].into_iter().collect();
        let w = 30;
        let head = path_head(&paths, w, "…").expect("a head that tells them apart");
        let (ca, cb) = (cut_middle(a, w, head, "…"), cut_middle(b, w, head, "…"));
        assert_ne!(ca, cb);
        assert_eq!(width(&ca), w);
        // The ids differ: a third from the start is kept, as usual.
        let c = "sessions/2026/11/29/rollout-2026-11-29T12-00-30-01a2272d-aaaa.jsonl";
        let d = "sessions/2026/11/29/rollout-2026-11-29T12-00-30-01a2272d-bbbb.jsonl";
        let paths: HashSet<&str> = [c, d].into_iter().collect();
        assert_eq!(path_head(&paths, w, "…"), Some((w - 1) / 3));
    }

    #[test]
    fn a_path_column_is_never_cut_below_the_width_that_keeps_its_paths_apart() {
        let a = format!("{}/x/same-tail.jsonl", "a".repeat(40));
        let b = format!("{}/y/same-tail.jsonl", "a".repeat(40));
        let paths: HashSet<&str> = [a.as_str(), b.as_str()].into_iter().collect();
        let natural = width(&a);
        let min = path_min(&paths, natural, "…");
        let head = path_head(&paths, min, "…").unwrap();
        assert_ne!(
            cut_middle(&a, min, head, "…"),
            cut_middle(&b, min, head, "…")
        );
        assert!(min < natural, "{min}");
    }

    #[test]
    fn an_emoji_with_its_variation_selector_is_measured_as_tabled_measures_it() {
        let hearts = "❤\u{fe0f}".repeat(30);
        let cut = cut_end(&hearts, 16, "…");
        assert!(width(&cut) <= 16, "{}", width(&cut));
        assert!(width(&cut) >= 14, "{}", width(&cut));
        let cut = cut_middle(&hearts, 16, 5, "…");
        assert!(width(&cut) <= 16, "{}", width(&cut));
    }

    #[test]
    fn wrapping_keeps_every_character() {
        let s = "a long user message that goes on and on, with averyveryverylongwordinit too";
        let w = wrap(s, 12);
        assert!(w.lines().all(|l| width(l) <= 12), "{w}");
        assert_eq!(w.replace(['\n', ' '], ""), s.replace(' ', ""));
        assert_eq!(wrap("short", 12), "short");
    }

    #[test]
    fn a_column_dropped_before_a_wider_one_comes_back_when_that_one_goes_too() {
        // Rank 2 goes first, then rank 3 (30 wide) must go as well: rank 2's 5 columns
        // now fit in what is left.
        let needs = [
            need(Give::Fixed, 9, 10, 10),
            need(Give::Fixed, 2, 5, 5),
            need(Give::Fixed, 3, 30, 30),
        ];
        let p = plan(&needs, &[0, 1, 2], Some(30), false);
        assert_eq!(p, [(0, 10), (1, 5)]);
        assert!(p.iter().map(|c| c.1).sum::<usize>() + chrome(p.len()) <= 30);
    }

    #[test]
    fn without_a_budget_texts_wrap_at_wrap_and_nothing_else_narrows() {
        let needs = [need(Give::Path, 9, 150, 24), need(Give::Text, 5, 5000, 16)];
        assert_eq!(plan(&needs, &[0, 1], None, false), [(0, 150), (1, WRAP)]);
    }

    #[test]
    fn bars_are_eighths_or_hashes() {
        assert_eq!(bar(1.0, 4, true), "████");
        assert_eq!(bar(0.5, 4, true), "██");
        assert_eq!(bar(0.0, 4, true), "");
        assert_eq!(bar(0.01, 4, true), "▏");
        assert_eq!(bar(0.5, 4, false), "##");
        assert_eq!(bar(f64::NAN, 4, false), "");
    }
}
