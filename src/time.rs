//! Timestamps: parsing rollout times, day and month buckets, and `--since`/`--until` bounds.
//!
//! Rollout timestamps are RFC 3339 UTC (`2026-11-29T12:00:30.628Z`). Buckets and date bounds
//! are in local time unless UTC is asked for, like `--by day`.

use chrono::{DateTime, Local, NaiveDate, NaiveDateTime, Offset, TimeZone, Utc};

/// Milliseconds since the epoch of an RFC 3339 timestamp; `None` when it does not parse.
pub fn parse_ms(ts: &str) -> Option<i64> {
    // Every record carries one: read Codex's own shape directly, leave the rest to chrono.
    if let Some(ms) = codex_ms(ts) {
        return Some(ms);
    }
    DateTime::parse_from_rfc3339(ts)
        .ok()
        .map(|d| d.timestamp_millis())
}

/// Whether `ts` is an RFC 3339 time in UTC (`…Z`), as [`parse_ms`] reads one: the check of
/// every record's timestamp, which needs no instant.
pub fn is_utc(ts: &str) -> bool {
    codex_fields(ts).is_some() || (ts.ends_with('Z') && parse_ms(ts).is_some())
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ`, the shape Codex writes, when every field is in range
/// (`None` otherwise, chrono then decides).
fn codex_ms(ts: &str) -> Option<i64> {
    let [y, m, d, h, min, s, ms] = codex_fields(ts)?;
    // Days from the civil date (Howard Hinnant's algorithm).
    let (y, m) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 24 + h) * 60 + min) * 60_000 + s * 1000 + ms)
}

/// The fields of a timestamp of Codex's shape (`YYYY-MM-DDTHH:MM:SS.mmmZ`) when every one is
/// in range: year, month, day, hour, minute, second, millisecond. Every record carries one:
/// the seventeen digits are checked in one pass, then read with plain arithmetic.
fn codex_fields(ts: &str) -> Option<[i64; 7]> {
    let b = <&[u8; 24]>::try_from(ts.as_bytes()).ok()?;
    let [y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1, b'T', h0, h1, b':', i0, i1, b':', s0, s1, b'.', f0, f1, f2, b'Z'] =
        *b
    else {
        return None;
    };
    let digits = [
        y0, y1, y2, y3, m0, m1, d0, d1, h0, h1, i0, i1, s0, s1, f0, f1, f2,
    ]
    .map(|c| c.wrapping_sub(b'0'));
    // One test for them all: no value past 9.
    if digits.iter().fold(0u8, |any, &v| any | u8::from(v > 9)) != 0 {
        return None;
    }
    let [y0, y1, y2, y3, m0, m1, d0, d1, h0, h1, i0, i1, s0, s1, f0, f1, f2] =
        digits.map(i64::from);
    let y = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
    let (m, d, h) = (m0 * 10 + m1, d0 * 10 + d1, h0 * 10 + h1);
    let (min, s, ms) = (i0 * 10 + i1, s0 * 10 + s1, f0 * 100 + f1 * 10 + f2);
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days_in_month = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    // A leap second (:60) is left to chrono.
    if d < 1 || d > days_in_month || h > 23 || min > 59 || s > 59 {
        return None;
    }
    Some([y, m, d, h, min, s, ms])
}

/// Which clock day and month buckets use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Zone {
    #[default]
    Local,
    Utc,
}

impl Zone {
    /// The calendar day of an instant in this zone.
    pub fn day(self, ms: i64) -> Option<NaiveDate> {
        let utc = Utc.timestamp_millis_opt(ms).single()?;
        Some(match self {
            Zone::Utc => utc.date_naive(),
            Zone::Local => utc.with_timezone(&Local).date_naive(),
        })
    }

    /// A timestamp on this zone's clock: the date and time it shows, and the zone's offset
    /// from UTC at that instant, in seconds (local time may change offset within one table).
    pub fn clock(self, ts: &str) -> Option<(NaiveDateTime, i32)> {
        let utc = Utc.timestamp_millis_opt(parse_ms(ts)?).single()?;
        Some(match self {
            Zone::Utc => (utc.naive_utc(), 0),
            Zone::Local => {
                let local = utc.with_timezone(&Local);
                (local.naive_local(), local.offset().fix().local_minus_utc())
            }
        })
    }

    /// The first instant (ms) of a calendar day in this zone.
    fn day_start_ms(self, d: NaiveDate) -> Option<i64> {
        let naive = d.and_hms_opt(0, 0, 0)?;
        Some(match self {
            Zone::Utc => Utc.from_utc_datetime(&naive).timestamp_millis(),
            Zone::Local => Local
                .from_local_datetime(&naive)
                .earliest()?
                .timestamp_millis(),
        })
    }
}

/// One end of a `--since`/`--until` range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bound {
    /// A calendar day, inclusive, in the chosen zone.
    Day(NaiveDate),
    /// An instant.
    Instant(i64),
}

impl Bound {
    /// Parse `YYYY-MM-DD` or an RFC 3339 time.
    pub fn parse(s: &str) -> Result<Bound, String> {
        if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
            return Ok(Bound::Day(d));
        }
        parse_ms(s)
            .map(Bound::Instant)
            .ok_or_else(|| format!("`{s}` is neither a date (YYYY-MM-DD) nor an RFC 3339 time"))
    }
}

/// A session start filter.
#[derive(Debug, Clone, Default)]
pub struct Range {
    pub since: Option<Bound>,
    pub until: Option<Bound>,
    pub zone: Zone,
}

impl Range {
    pub fn is_open(&self) -> bool {
        self.since.is_none() && self.until.is_none()
    }

    /// Whether no instant can fall in the range: `--since` after `--until`. (A day bound
    /// covers its whole day, so `--since D --until D` is one day, not empty.)
    pub fn is_empty(&self) -> bool {
        let (Some(lo), Some(hi)) = (&self.since, &self.until) else {
            return false;
        };
        let lo = match lo {
            Bound::Instant(t) => Some(*t),
            Bound::Day(d) => self.zone.day_start_ms(*d),
        };
        // The first instant past the range.
        let past = match hi {
            Bound::Instant(t) => t.checked_add(1),
            Bound::Day(d) => d.succ_opt().and_then(|n| self.zone.day_start_ms(n)),
        };
        matches!((lo, past), (Some(lo), Some(past)) if lo >= past)
    }

    /// Does a session starting at `ms` fall in the range? A session with no known start
    /// is kept only when the range is open.
    pub fn contains(&self, ms: Option<i64>) -> bool {
        if self.is_open() {
            return true;
        }
        let Some(ms) = ms else { return false };
        if let Some(lo) = &self.since {
            let lo_ms = match lo {
                Bound::Instant(t) => Some(*t),
                Bound::Day(d) => self.zone.day_start_ms(*d),
            };
            if lo_ms.is_some_and(|lo| ms < lo) {
                return false;
            }
        }
        if let Some(hi) = &self.until {
            match hi {
                Bound::Instant(t) => {
                    if ms > *t {
                        return false;
                    }
                }
                Bound::Day(d) => {
                    let next = d.succ_opt().and_then(|n| self.zone.day_start_ms(n));
                    if next.is_some_and(|n| ms >= n) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_is_empty_only_when_since_is_after_until() {
        let range = |a: &str, b: &str| Range {
            since: Some(Bound::parse(a).unwrap()),
            until: Some(Bound::parse(b).unwrap()),
            zone: Zone::Utc,
        };
        assert!(range("2026-12-01", "2026-11-01").is_empty());
        assert!(!range("2026-11-29", "2026-11-29").is_empty());
        assert!(!range("2026-11-29T12:00:00Z", "2026-11-29").is_empty());
        assert!(range("2026-11-30T00:00:00Z", "2026-11-29").is_empty());
        assert!(!range("2026-11-29T12:00:00Z", "2026-11-29T12:00:00Z").is_empty());
        assert!(range("2026-11-29T12:00:00.001Z", "2026-11-29T12:00:00Z").is_empty());
        assert!(!Range::default().is_empty());
    }

    #[test]
    fn codex_shape_reads_as_chrono_reads_it() {
        let chrono_ms = |ts: &str| {
            DateTime::parse_from_rfc3339(ts)
                .ok()
                .map(|d| d.timestamp_millis())
        };
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let r = state >> 11;
            let ts = format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
                1960 + r % 120,
                (r >> 8) % 14,
                (r >> 12) % 33,
                (r >> 18) % 25,
                (r >> 24) % 61,
                (r >> 30) % 62,
                (r >> 36) % 1000
            );
            assert_eq!(parse_ms(&ts), chrono_ms(&ts), "{ts}");
        }
        for ts in [
            "2024-02-29T23:59:59.999Z",
            "2023-02-29T00:00:00.000Z",
            "2026-11-29T12:00:30.628z",
        ] {
            assert_eq!(parse_ms(ts), chrono_ms(ts), "{ts}");
        }
        // Any byte anywhere: the digits and separators are checked as chrono checks them,
        // and a time is UTC RFC 3339 when it parses and ends in `Z`.
        let base = *b"2026-11-29T12:00:30.628Z";
        for at in 0..base.len() {
            for byte in 0..=255u8 {
                let mut t = base;
                t[at] = byte;
                if let Ok(ts) = std::str::from_utf8(&t) {
                    assert_eq!(parse_ms(ts), chrono_ms(ts), "{ts:?}");
                    let utc = ts.ends_with('Z') && chrono_ms(ts).is_some();
                    assert_eq!(is_utc(ts), utc, "{ts:?}");
                }
            }
        }
        for ts in [
            "2026-11-29T12:00:30Z",
            "2026-11-29T13:00:30+01:00",
            "2026-11-29 12:00:30",
        ] {
            assert_eq!(
                is_utc(ts),
                ts.ends_with('Z') && chrono_ms(ts).is_some(),
                "{ts}"
            );
        }
    }

    #[test]
    fn parses_codex_timestamps() {
        assert_eq!(parse_ms("1970-01-01T00:00:01.500Z"), Some(1500));
        assert_eq!(parse_ms("yesterday"), None);
    }

    #[test]
    fn until_day_is_inclusive_in_utc() {
        let r = Range {
            since: Some(Bound::parse("2026-11-29").unwrap()),
            until: Some(Bound::parse("2026-11-29").unwrap()),
            zone: Zone::Utc,
        };
        assert!(r.contains(parse_ms("2026-11-29T00:00:00Z")));
        assert!(r.contains(parse_ms("2026-11-29T23:59:59.999Z")));
        assert!(!r.contains(parse_ms("2026-11-30T00:00:00Z")));
        assert!(!r.contains(parse_ms("2026-11-28T23:59:59Z")));
        assert!(!r.contains(None));
    }

    #[test]
    fn instant_bounds() {
        let r = Range {
            since: Some(Bound::parse("2026-11-29T12:00:00Z").unwrap()),
            until: None,
            zone: Zone::Local,
        };
        assert!(!r.contains(parse_ms("2026-11-29T11:59:59Z")));
        assert!(r.contains(parse_ms("2026-11-29T12:00:00Z")));
        assert!(Bound::parse("29/11/2026").is_err());
    }
}
