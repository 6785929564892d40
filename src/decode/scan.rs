//! The decoder's fast path: one pass over a line that checks it is valid JSON and valid
//! UTF-8, and finds the envelope's fields and the payload's `type` on the way.
//!
//! The answer is either "valid, and here are the parts, exactly as serde_json would have
//! found them" or "not sure" (`None`). Every "not sure" goes to the serde path in
//! `decode.rs`, which decides and gives the exact located error. So this scanner must never
//! accept a line that serde_json would reject, and must find the same parts; it may give up
//! on anything unusual (escaped keys, duplicate envelope fields, very deep nesting...).
//!
//! The grammar is serde_json's (RFC 8259): objects, arrays, strings without raw control
//! characters and with the escapes `\" \\ \/ \b \f \n \r \t \uXXXX`, numbers
//! `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, `true`, `false`, `null`, whitespace
//! ` \t\n\r`. Like the `serde_json::Value` Codex reads a line into, surrogate escapes must
//! pair up: `\uD800`-`\uDBFF` immediately followed by `\uDC00`-`\uDFFF` is one character,
//! any other `\uD800`-`\uDFFF` is an error. Every escape of a string is visited on its own
//! (a block without backslashes costs nothing), so this check costs nothing where no `\u`
//! escape is.
//!
//! Speed: string contents are the bulk of a rollout (tool outputs, instructions). They are
//! scanned 64 bytes at a time with SSE2 (every x86_64 CPU has it) into bit masks of quotes,
//! backslashes, control characters and non-ASCII bytes; escapes are paired off with
//! simdjson's branchless carry trick, so a string full of `\n` is not walked byte by byte.
//! UTF-8 is checked only on the strings that hold non-ASCII bytes (outside strings the
//! grammar admits ASCII only), so no separate UTF-8 pass is needed.

/// A byte range of the line.
pub(crate) type Span = (usize, usize);

/// What the payload's top-level `type` key holds, as serde would read it into
/// `Option<Cow<str>>` (a duplicate key or a non-string value read as nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PayloadType {
    /// No usable `type`.
    Absent,
    /// The string's contents (between the quotes), free of escapes.
    Plain(Span),
    /// Escapes involved: ask serde.
    Slow,
}

/// One top-level member of the payload object: its key's contents (between the quotes, free
/// of escapes) and its value, as spans of the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Field {
    pub key: Span,
    pub value: Span,
}

/// The envelope as serde's `RawEnvelope` would see it: the raw JSON of each known field,
/// `None` when absent or `null`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Parts {
    pub timestamp: Option<Span>,
    pub ordinal: Option<Span>,
    pub type_: Option<Span>,
    pub payload: Option<Span>,
    pub metadata: Option<Span>,
    pub payload_type: PayloadType,
    /// `fields` holds every top-level member of the payload, in order (no key escaped).
    pub fields_complete: bool,
    /// `timestamp` is a string without escapes (its contents are its span less the quotes).
    pub plain_timestamp: bool,
    /// `type` is a string without escapes.
    pub plain_type: bool,
}

/// Check `line` and find its envelope; `None` when the serde path must decide.
/// On `Some`, the whole line is valid UTF-8 and valid JSON, and `fields` holds the payload's
/// top-level members (complete when `Parts::fields_complete`).
pub(crate) fn scan(line: &[u8], fields: &mut Vec<Field>) -> Option<Parts> {
    scan_at::<AUTO>(line, fields)
}

/// [`scan`] with the string scanning of one [`Vector`] path, not the one the CPU picks: for
/// the differential checks (`crate::fuzz`), which hold the paths to each other. `None` when
/// this CPU cannot run that path.
pub(crate) fn scan_with(line: &[u8], fields: &mut Vec<Field>, v: Vector) -> Option<Option<Parts>> {
    Some(match v {
        Vector::Scalar => scan_at::<SCALAR>(line, fields),
        Vector::Sse2 => scan_at::<SSE2>(line, fields),
        Vector::Avx2 if avx2() => scan_at::<AVX2>(line, fields),
        Vector::Avx2 => return None,
    })
}

fn scan_at<const V: u8>(line: &[u8], fields: &mut Vec<Field>) -> Option<Parts> {
    fields.clear();
    let mut s: Scanner<'_, false, V> = Scanner {
        b: line,
        i: 0,
        fields,
    };
    let parts = s.envelope()?;
    s.ws();
    (s.i == line.len()).then_some(parts)
}

/// The ways strings are scanned. Which one runs is the CPU's choice ([`AUTO`]): AVX2 where it
/// has it, else SSE2 (every x86_64 CPU), else plain Rust.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Vector {
    /// Plain Rust, a byte at a time into the same masks (the path of CPUs other than
    /// x86_64).
    Scalar,
    /// 16-byte vectors (plain Rust where the CPU is not x86_64).
    Sse2,
    /// 32-byte vectors, with the one-letter escapes checked a block at a time.
    Avx2,
}

/// `V`, the scanner's vector level as a const parameter: the CPU's pick, or one forced.
const AUTO: u8 = 0;
const SCALAR: u8 = 1;
const SSE2: u8 = 2;
const AVX2: u8 = 3;

/// The CPU has AVX2 (the check is cached by std).
#[inline(always)]
fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// [`scan`] of the line at the start of `buf`, a read buffer that goes on past it: the
/// line is checked where it lies and its end found on the way, so the decoder need not
/// search for it first. Returns the parts and where the line's `\n` is; `None` when the
/// line is not all there, or not valid, or ends otherwise than in white space and `\n`
/// (the decoder then finds the line's end and calls [`scan`]). A line accepted here is
/// one [`scan`] accepts, with the same parts.
pub(crate) fn scan_in_buffer(buf: &[u8], fields: &mut Vec<Field>) -> Option<(Parts, usize)> {
    fields.clear();
    let mut s: Scanner<'_, true> = Scanner {
        b: buf,
        i: 0,
        fields,
    };
    let parts = s.envelope()?;
    // Inside the line, a `\n` is neither white space nor allowed in a string: the first
    // one past the object is the line's end.
    s.ws();
    (s.peek()? == b'\n').then_some((parts, s.i))
}

/// The length of the JSON string at the start of `b` (its opening quote through its
/// closing one), checked as every string of a line is (escapes, control characters,
/// UTF-8, surrogate pairs); `None` when `b` does not start with one.
pub(crate) fn string_len(b: &[u8]) -> Option<usize> {
    if b.first() != Some(&b'"') {
        return None;
    }
    let mut fields = Vec::new();
    let mut s: Scanner<'_> = Scanner {
        b,
        i: 1,
        fields: &mut fields,
    };
    s.string()?;
    Some(s.i)
}

/// The length of the JSON value at the start of `b`, checked as a line's values are;
/// `None` when it is not one, or is one the scanner leaves to serde (nested deeper than
/// it goes).
pub(crate) fn value_len(b: &[u8]) -> Option<usize> {
    let mut fields = Vec::new();
    let mut s: Scanner<'_> = Scanner {
        b,
        i: 0,
        fields: &mut fields,
    };
    s.value()?;
    Some(s.i)
}

/// Deeper nesting than this is left to serde, which checks Codex's limit (a line nested 128
/// levels deep fails `serde_json::Value`'s recursion limit). Real rollouts nest far less.
const MAX_DEPTH: usize = 64;

/// `IN_BUFFER`: the text goes on past the line (a read buffer), so a `\n` ends the line
/// and is not white space; otherwise the text is one line or one value, and JSON's white
/// space includes `\n`. `V`: the vector level strings are scanned at ([`AUTO`], or one
/// forced for the differential checks).
struct Scanner<'a, const IN_BUFFER: bool = false, const V: u8 = AUTO> {
    b: &'a [u8],
    i: usize,
    fields: &'a mut Vec<Field>,
}

#[inline(always)]
fn is_ws<const IN_BUFFER: bool>(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r') || (!IN_BUFFER && c == b'\n')
}

impl<const IN_BUFFER: bool, const V: u8> Scanner<'_, IN_BUFFER, V> {
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline(always)]
    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.i) {
            if !is_ws::<IN_BUFFER>(c) {
                break;
            }
            self.i += 1;
        }
    }

    /// Consume `c` (after optional whitespace).
    #[inline(always)]
    fn expect(&mut self, c: u8) -> Option<()> {
        self.ws();
        if self.peek()? == c {
            self.i += 1;
            Some(())
        } else {
            None
        }
    }

    /// The rest of a string, `i` just after its opening quote. Leaves `i` after the closing
    /// quote; returns whether the string held an escape.
    #[inline(always)]
    fn string(&mut self) -> Option<bool> {
        let b = self.b;
        let start = self.i;
        // Most strings are short and plain (keys, names, ids, times): up to four 16-byte
        // looks settle them. Anything else goes on from where these stopped.
        let mut i = start;
        for _ in 0..4 {
            let Some((quote, other)) = chunk16::<V>(b, i) else {
                break;
            };
            if quote != 0 {
                // The string ends here if nothing else comes before its quote (told from the
                // masks, not from the byte: no load on the way to the branch).
                let k = quote.trailing_zeros();
                if other & ((1 << k) - 1) == 0 {
                    self.i = i + k as usize + 1;
                    return Some(false);
                }
                break;
            }
            if other != 0 {
                break;
            }
            i += 16;
        }
        self.long_string(start, i)
    }

    /// The rest of a string that started at `start`; `start..i` is known to be plain ASCII.
    fn long_string(&mut self, start: usize, i: usize) -> Option<bool> {
        match V {
            SCALAR => self.long_string_with::<SCALAR>(start, i),
            SSE2 => self.long_string_with::<SSE2>(start, i),
            // SAFETY: a scanner at `AVX2` is only made where the CPU has it (`scan_with`).
            AVX2 => unsafe { self.long_string_avx2(start, i) },
            _ if avx2() => {
                // SAFETY: the CPU has AVX2.
                unsafe { self.long_string_avx2(start, i) }
            }
            _ => self.long_string_with::<SSE2>(start, i),
        }
    }

    /// [`Self::long_string_with`] at `AVX2`, compiled for it. Safety: the CPU must have AVX2.
    #[cfg_attr(target_arch = "x86_64", target_feature(enable = "avx2"))]
    unsafe fn long_string_avx2(&mut self, start: usize, i: usize) -> Option<bool> {
        self.long_string_with::<AVX2>(start, i)
    }

    /// [`Self::long_string`] at vector level `W` (`AVX2` only ever inside a function
    /// compiled for AVX2).
    #[inline(always)]
    fn long_string_with<const W: u8>(&mut self, start: usize, mut i: usize) -> Option<bool> {
        let b = self.b;
        let mut carry = 0u64;
        let mut escaped_any = false;
        let mut non_ascii = false;
        let mut paired_low = usize::MAX;
        while let Some(block) = b.get(i..i + 64).and_then(|s| <&[u8; 64]>::try_from(s).ok()) {
            let m = Masks::at::<W>(block);
            let escaped = if m.backslash | carry == 0 {
                0
            } else {
                escaped_bits(m.backslash, &mut carry)
            };
            let quotes = m.quote & !escaped;
            // The bytes of this block that belong to the string.
            let inside = if quotes == 0 {
                !0
            } else {
                (quotes & quotes.wrapping_neg()) - 1
            };
            if m.control & inside != 0 {
                return None;
            }
            let mut esc = escaped & inside;
            if esc != 0 {
                escaped_any = true;
                #[cfg(target_arch = "x86_64")]
                if W == AVX2 {
                    // The one-letter escapes are checked for the whole block at once; only
                    // `\u` (and wrong ones) are left for one by one. A loop over every escape
                    // mispredicted its exit in most blocks of text full of `\n`.
                    esc &= !simple_escapes_avx2(block);
                }
                while esc != 0 {
                    valid_escape(b, i + esc.trailing_zeros() as usize, &mut paired_low)?;
                    esc &= esc - 1;
                }
            }
            non_ascii |= m.high & inside != 0;
            if quotes != 0 {
                return self.string_end(
                    start,
                    i + quotes.trailing_zeros() as usize,
                    escaped_any,
                    non_ascii,
                );
            }
            i += 64;
        }
        // The last bytes of the line, one at a time.
        if carry != 0 {
            i += valid_escape(b, i, &mut paired_low)?;
            escaped_any = true;
        }
        while let Some(&c) = b.get(i) {
            match c {
                b'"' => return self.string_end(start, i, escaped_any, non_ascii),
                b'\\' => {
                    escaped_any = true;
                    i += 1 + valid_escape(b, i + 1, &mut paired_low)?;
                }
                0..=0x1f => return None,
                _ => {
                    non_ascii |= c >= 0x80;
                    i += 1;
                }
            }
        }
        None
    }

    /// A string from `start` ends at the quote at `end`.
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "`start..end` is the string's contents: `end` is its closing quote, found in `b`"
    )]
    fn string_end(
        &mut self,
        start: usize,
        end: usize,
        escaped: bool,
        non_ascii: bool,
    ) -> Option<bool> {
        // Outside strings only ASCII passes, so checking the strings that hold non-ASCII
        // bytes checks the line.
        if non_ascii && simdutf8::basic::from_utf8(&self.b[start..end]).is_err() {
            return None;
        }
        self.i = end + 1;
        Some(escaped)
    }

    /// A key (from its opening quote) and the colon after it. Returns the key's contents
    /// and whether it held an escape.
    #[inline(always)]
    fn key(&mut self) -> Option<(Span, bool)> {
        if self.peek()? != b'"' {
            return None;
        }
        self.i += 1;
        let start = self.i;
        let escaped = self.string()?;
        let span = (start, self.i - 1);
        self.expect(b':')?;
        self.ws();
        Some((span, escaped))
    }

    #[inline(always)]
    fn literal(&mut self, word: &[u8]) -> Option<()> {
        if self.b.get(self.i..self.i + word.len())? == word {
            self.i += word.len();
            Some(())
        } else {
            None
        }
    }

    #[inline(always)]
    fn digits(&mut self) -> usize {
        let start = self.i;
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
        self.i - start
    }

    #[inline(always)]
    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return None;
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if self.digits() == 0 {
                return None;
            }
        }
        Some(())
    }

    /// One value of any kind, `i` at its first byte (whitespace skipped).
    #[inline(always)]
    fn value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => {
                self.i += 1;
                self.string().map(|_| ())
            }
            b'-' | b'0'..=b'9' => self.number(),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.nested(),
        }
    }

    /// A value that may be an object or an array, iterative, with the open containers kept
    /// as bits (1 = object). Scalars are checked here too.
    fn nested(&mut self) -> Option<()> {
        let mut stack = [0u64; MAX_DEPTH / 64];
        let mut depth = 0usize;
        loop {
            // A value starts here.
            match self.peek()? {
                b'"' => {
                    self.i += 1;
                    self.string()?;
                }
                b'{' => {
                    self.i += 1;
                    self.ws();
                    if self.peek()? == b'}' {
                        self.i += 1;
                    } else {
                        if depth == MAX_DEPTH {
                            return None;
                        }
                        #[allow(
                            clippy::indexing_slicing,
                            reason = "`depth < MAX_DEPTH` (above); the stack holds `MAX_DEPTH / 64` words"
                        )]
                        {
                            stack[depth / 64] |= 1 << (depth % 64);
                        }
                        depth += 1;
                        self.key()?;
                        continue;
                    }
                }
                b'[' => {
                    self.i += 1;
                    self.ws();
                    if self.peek()? == b']' {
                        self.i += 1;
                    } else {
                        if depth == MAX_DEPTH {
                            return None;
                        }
                        #[allow(
                            clippy::indexing_slicing,
                            reason = "`depth < MAX_DEPTH` (above); the stack holds `MAX_DEPTH / 64` words"
                        )]
                        {
                            stack[depth / 64] &= !(1 << (depth % 64));
                        }
                        depth += 1;
                        continue;
                    }
                }
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                b'-' | b'0'..=b'9' => self.number()?,
                _ => return None,
            }
            // After a value: close containers, or go on to the next element.
            loop {
                if depth == 0 {
                    return Some(());
                }
                #[allow(
                    clippy::indexing_slicing,
                    reason = "`1 <= depth <= MAX_DEPTH` here; the stack holds `MAX_DEPTH / 64` words"
                )]
                let in_object = stack[(depth - 1) / 64] >> ((depth - 1) % 64) & 1 == 1;
                self.ws();
                match self.peek()? {
                    b',' => {
                        self.i += 1;
                        self.ws();
                        if in_object {
                            self.key()?;
                        }
                        break;
                    }
                    b'}' if in_object => {
                        self.i += 1;
                        depth -= 1;
                    }
                    b']' if !in_object => {
                        self.i += 1;
                        depth -= 1;
                    }
                    _ => return None,
                }
            }
        }
    }

    /// The payload object (`i` at its `{`): every member checked and noted in `fields`, its
    /// top-level `type` found. The flag: every member was noted (no key held an escape).
    fn payload(&mut self) -> Option<(PayloadType, bool)> {
        self.i += 1;
        self.ws();
        let mut found: Option<Span> = None;
        let mut count = 0u32;
        let mut slow = false;
        if self.peek()? == b'}' {
            self.i += 1;
            return Some((PayloadType::Absent, true));
        }
        loop {
            let ((ks, ke), escaped) = self.key()?;
            let start = self.i;
            self.value()?;
            if escaped {
                slow = true;
            } else {
                self.fields.push(Field {
                    key: (ks, ke),
                    value: (start, self.i),
                });
                #[allow(
                    clippy::indexing_slicing,
                    reason = "a key's span, inside the line like every span the scanner makes"
                )]
                let key = &self.b[ks..ke];
                if key == b"type" {
                    count += 1;
                    found = Some((start, self.i));
                }
            }
            self.ws();
            match self.peek()? {
                b',' => {
                    self.i += 1;
                    self.ws();
                }
                b'}' => {
                    self.i += 1;
                    break;
                }
                _ => return None,
            }
        }
        #[allow(
            clippy::indexing_slicing,
            reason = "`found` is a value's span in the line; one starting with a quote is a string, its two quotes included"
        )]
        let ptype = if slow {
            PayloadType::Slow
        } else if count > 1 {
            // A repeated `type`: the last one counts (as in the `Value` Codex reads); serde
            // decides.
            PayloadType::Slow
        } else if count == 0 {
            PayloadType::Absent
        } else {
            let (s, e) = found?;
            if self.b[s] != b'"' {
                // null, or not a string: no type.
                PayloadType::Absent
            } else if self.b[s + 1..e - 1].contains(&b'\\') {
                PayloadType::Slow
            } else {
                PayloadType::Plain((s + 1, e - 1))
            }
        };
        Some((ptype, !slow))
    }

    /// The envelope object, from the line's start through its closing brace.
    fn envelope(&mut self) -> Option<Parts> {
        self.expect(b'{')?;
        self.ws();
        let mut parts = Parts {
            timestamp: None,
            ordinal: None,
            type_: None,
            payload: None,
            metadata: None,
            payload_type: PayloadType::Absent,
            fields_complete: false,
            plain_timestamp: false,
            plain_type: false,
        };
        // The known fields seen, one bit each.
        let mut seen = 0u8;
        if self.peek()? == b'}' {
            self.i += 1;
        } else {
            loop {
                let ((ks, ke), escaped) = self.key()?;
                if escaped {
                    // serde unescapes keys (and checks their surrogates): let it.
                    return None;
                }
                #[allow(
                    clippy::indexing_slicing,
                    reason = "a key's span, inside the line like every span the scanner makes"
                )]
                let field = match &self.b[ks..ke] {
                    b"timestamp" => Some(0),
                    b"ordinal" => Some(1),
                    b"type" => Some(2),
                    b"payload" => Some(3),
                    b"metadata" => Some(4),
                    _ => None,
                };
                let start = self.i;
                let mut ptype = PayloadType::Absent;
                let mut plain = false;
                if field == Some(3) && self.peek()? == b'{' {
                    let (t, complete) = self.payload()?;
                    ptype = t;
                    parts.fields_complete = complete;
                } else if self.peek()? == b'"' {
                    self.i += 1;
                    plain = !self.string()?;
                } else {
                    self.value()?;
                }
                let span = (start, self.i);
                if let Some(f) = field {
                    if seen & (1 << f) != 0 {
                        // A duplicate field is an error for serde.
                        return None;
                    }
                    seen |= 1 << f;
                    #[allow(
                        clippy::indexing_slicing,
                        reason = "the span of the value just scanned"
                    )]
                    let v = (&self.b[start..self.i] != b"null").then_some(span);
                    match f {
                        0 => {
                            parts.timestamp = v;
                            parts.plain_timestamp = plain;
                        }
                        1 => parts.ordinal = v,
                        2 => {
                            parts.type_ = v;
                            parts.plain_type = plain;
                        }
                        3 => {
                            parts.payload = v;
                            parts.payload_type = ptype;
                        }
                        _ => parts.metadata = v,
                    }
                }
                self.ws();
                match self.peek()? {
                    b',' => {
                        self.i += 1;
                        self.ws();
                    }
                    b'}' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        Some(parts)
    }
}

/// The special bytes of a 64-byte block, one bit per byte.
#[derive(Default)]
struct Masks {
    quote: u64,
    backslash: u64,
    /// Control characters (below 0x20), never allowed raw in a string.
    control: u64,
    /// Bytes that are not ASCII.
    high: u64,
}

impl Masks {
    /// The masks of a block, at vector level `W` (`AVX2` only in code compiled for AVX2;
    /// `SSE2` is plain Rust off x86_64).
    #[inline(always)]
    fn at<const W: u8>(block: &[u8; 64]) -> Masks {
        #[cfg(target_arch = "x86_64")]
        if W != SCALAR {
            // SAFETY: the 64 bytes read are `block`'s; SSE2 is part of the x86_64 baseline,
            // and AVX2 is only asked for in code compiled for it, run where the CPU has it.
            return unsafe {
                if W == AVX2 {
                    masks_avx2(block)
                } else {
                    masks_sse2(block)
                }
            };
        }
        masks_scalar(block)
    }
}

/// [`Masks::at`] in plain Rust.
#[inline(always)]
fn masks_scalar(block: &[u8; 64]) -> Masks {
    let mut m = Masks::default();
    for (k, &c) in block.iter().enumerate() {
        m.quote |= ((c == b'"') as u64) << k;
        m.backslash |= ((c == b'\\') as u64) << k;
        m.control |= ((c < 0x20) as u64) << k;
        m.high |= ((c >= 0x80) as u64) << k;
    }
    m
}

/// [`Masks::at`] with SSE2. Safety: none beyond the CPU's (SSE2 is x86_64's baseline); the
/// loads stay within `block`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn masks_sse2(block: &[u8; 64]) -> Masks {
    let p = block.as_ptr();
    use std::arch::x86_64::*;
    let quote = _mm_set1_epi8(b'"' as i8);
    let backslash = _mm_set1_epi8(b'\\' as i8);
    let ctrl = _mm_set1_epi8(0x1f);
    let mut m = Masks::default();
    for k in 0..4 {
        let v = _mm_loadu_si128(p.add(16 * k) as *const __m128i);
        let shift = 16 * k as u32;
        m.quote |= (_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) as u16 as u64) << shift;
        m.backslash |= (_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash)) as u16 as u64) << shift;
        m.control |=
            (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, ctrl), v)) as u16 as u64) << shift;
        m.high |= (_mm_movemask_epi8(v) as u16 as u64) << shift;
    }
    m
}

/// [`Masks::at`] with AVX2. Safety: only in code compiled for AVX2, run where the CPU has
/// it; the loads stay within `block`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn masks_avx2(block: &[u8; 64]) -> Masks {
    let p = block.as_ptr();
    use std::arch::x86_64::*;
    let quote = _mm256_set1_epi8(b'"' as i8);
    let backslash = _mm256_set1_epi8(b'\\' as i8);
    let ctrl = _mm256_set1_epi8(0x1f);
    let mut m = Masks::default();
    for k in 0..2 {
        let v = _mm256_loadu_si256(p.add(32 * k) as *const __m256i);
        let shift = 32 * k as u32;
        m.quote |= (_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, quote)) as u32 as u64) << shift;
        m.backslash |=
            (_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, backslash)) as u32 as u64) << shift;
        m.control |= (_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(v, ctrl), v)) as u32
            as u64)
            << shift;
        m.high |= (_mm256_movemask_epi8(v) as u32 as u64) << shift;
    }
    m
}

/// The bytes of a block that are one-letter escape
/// letters (`"\\/bfnrt`), one bit per byte; by two nibble lookups, as simdjson classifies.
/// Only for code compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn simple_escapes_avx2(block: &[u8; 64]) -> u64 {
    use std::arch::x86_64::*;
    // Each letter is one bit set in both the table of its low nibble and the table of its
    // high nibble: bit 0 `"` `/` (0x2_), bit 1 `\\` (0x5_), bit 2 `b` `f` `n` (0x6_), bit 3
    // `r` `t` (0x7_).
    const LOW: [i8; 16] = [
        0, 0, 0b1101, 0, 0b1000, 0, 0b0100, 0, 0, 0, 0, 0, 0b0010, 0, 0b0100, 0b0001,
    ];
    const HIGH: [i8; 16] = [
        0, 0, 0b0001, 0, 0, 0b0010, 0b0100, 0b1000, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
    // SAFETY: the 64 bytes read are `block`'s; this is only inlined into functions compiled
    // for AVX2, run where the CPU has it.
    unsafe {
        let low = _mm256_broadcastsi128_si256(_mm_loadu_si128(LOW.as_ptr() as *const __m128i));
        let high = _mm256_broadcastsi128_si256(_mm_loadu_si128(HIGH.as_ptr() as *const __m128i));
        let nibble = _mm256_set1_epi8(0x0f);
        let mut mask = 0u64;
        for k in 0..2 {
            let v = _mm256_loadu_si256(block.as_ptr().add(32 * k) as *const __m256i);
            let lo = _mm256_shuffle_epi8(low, _mm256_and_si256(v, nibble));
            let hi = _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
            let none = _mm256_cmpeq_epi8(_mm256_and_si256(lo, hi), _mm256_setzero_si256());
            mask |= (!(_mm256_movemask_epi8(none) as u32) as u64) << (32 * k);
        }
        mask
    }
}

/// The bytes escaped by a backslash in a block, given its backslashes; `carry` says whether
/// the block's first byte is escaped (and is set for the next block). Runs of backslashes
/// are paired off: `\\\\` escapes nothing after it, `\\\` escapes one byte. (simdjson's
/// branchless `find_escaped`.)
#[inline(always)]
fn escaped_bits(backslash: u64, carry: &mut u64) -> u64 {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    let backslash = backslash & !*carry;
    let follows_escape = backslash << 1 | *carry;
    let odd_starts = backslash & !EVEN & !follows_escape;
    let (even_starts, overflow) = odd_starts.overflowing_add(backslash);
    *carry = overflow as u64;
    (EVEN ^ (even_starts << 1)) & follows_escape
}

/// The escaped byte at `at` (the one after a backslash) is a valid escape: returns how many
/// bytes the escape takes from `at` (1, or 5 for `\\uXXXX`). `paired_low` is where the low
/// half of the last high surrogate escape seen (`\\uD800`-`\\uDBFF`) stands: that one, and
/// no other low surrogate escape, is valid (it is visited as an escape of its own).
#[inline(always)]
fn valid_escape(b: &[u8], at: usize, paired_low: &mut usize) -> Option<usize> {
    // A table and one well-predicted branch: a `match` here compiled to a jump table whose
    // indirect jump was mispredicted on every change of escape letter (`\n`, `\"`, `\\`...).
    #[allow(clippy::indexing_slicing, reason = "a byte indexes a table of 256")]
    let simple = SIMPLE_ESCAPE[*b.get(at)? as usize];
    if simple {
        Some(1)
    } else {
        unicode_escape(b, at, paired_low)
    }
}

/// The letters of the one-letter escapes.
static SIMPLE_ESCAPE: [bool; 256] = {
    let mut t = [false; 256];
    let mut k = 0;
    let letters = *b"\"\\/bfnrt";
    while k < letters.len() {
        #[allow(
            clippy::indexing_slicing,
            reason = "evaluated at compile time: an index out of bounds fails the build"
        )]
        {
            t[letters[k] as usize] = true;
        }
        k += 1;
    }
    t
};

/// [`valid_escape`] for anything but a one-letter escape: `\\uXXXX`, or an error.
#[inline(always)]
fn unicode_escape(b: &[u8], at: usize, paired_low: &mut usize) -> Option<usize> {
    if b.get(at) != Some(&b'u') {
        return None;
    }
    let hex: &[u8; 4] = b.get(at + 1..at + 5)?.try_into().ok()?;
    if !hex.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    if hex[0] | 0x20 == b'd' && hex[1] >= b'8' {
        // `d8`-`df` (or `D8`-`DF`): hex digits at or above `8` are `8`-`9`, `a`-`f` and
        // `A`-`F`.
        surrogate(b, at, hex[1] | 0x20, paired_low)?;
    }
    Some(5)
}

/// A surrogate escape `\\uD?XX` (its `u` at `at`, `second` its second hex digit in lower
/// case): a high one must be followed at once by a low one (whose place is noted in
/// `paired_low`), a low one must be that place. As serde_json checks them when it reads a
/// string.
#[cold]
#[inline(never)]
fn surrogate(b: &[u8], at: usize, second: u8, paired_low: &mut usize) -> Option<()> {
    if matches!(second, b'8'..=b'9' | b'a'..=b'b') {
        let next: &[u8; 6] = b.get(at + 5..at + 11)?.try_into().ok()?;
        let low = next[0] == b'\\'
            && next[1] == b'u'
            && next[2] | 0x20 == b'd'
            && matches!(next[3] | 0x20, b'c'..=b'f')
            && next[4..].iter().all(u8::is_ascii_hexdigit);
        if !low {
            return None;
        }
        *paired_low = at + 6;
        Some(())
    } else {
        (at == *paired_low).then_some(())
    }
}

/// The quotes, and the other bytes a plain string cannot hold (`\\`, control characters,
/// non-ASCII bytes), of `b[i..i + 16]`, one bit per byte; `None` when fewer than 16 bytes
/// are left. At vector level `V` (SSE2 unless `SCALAR`; plain Rust off x86_64).
#[inline(always)]
fn chunk16<const V: u8>(b: &[u8], i: usize) -> Option<(u32, u32)> {
    let chunk: &[u8; 16] = b.get(i..i + 16)?.try_into().ok()?;
    #[cfg(target_arch = "x86_64")]
    if V != SCALAR {
        // SAFETY: SSE2 is part of the x86_64 baseline; the 16 bytes read are `chunk`'s.
        unsafe {
            use std::arch::x86_64::*;
            let v = _mm_loadu_si128(chunk.as_ptr() as *const __m128i);
            let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
            // A byte's top bit: set by a match below, or by the byte itself when non-ASCII.
            let other = _mm_or_si128(
                _mm_or_si128(
                    _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8)),
                    _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v),
                ),
                v,
            );
            return Some((
                _mm_movemask_epi8(quote) as u32,
                _mm_movemask_epi8(other) as u32,
            ));
        }
    }
    let mut q = 0u32;
    let mut o = 0u32;
    for (k, &c) in chunk.iter().enumerate() {
        q |= ((c == b'"') as u32) << k;
        o |= ((c == b'\\' || !(0x20..0x80).contains(&c)) as u32) << k;
    }
    Some((q, o))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many random cases a test runs: fewer under Miri, which runs each one many
    /// thousand times slower (checking every load of the vector paths).
    const CASES: usize = if cfg!(miri) { 200 } else { 30_000 };

    /// The scanner without the caller's field list.
    fn scan(line: &[u8]) -> Option<Parts> {
        super::scan(line, &mut Vec::new())
    }

    /// What serde_json says about a line, read as Codex reads it: into a `Value` (which
    /// also rejects lone surrogate escapes and nesting of 128 levels).
    fn serde_ok(s: &str) -> bool {
        serde_json::from_str::<serde_json::Value>(s).is_ok()
    }

    #[test]
    fn accepts_only_what_serde_accepts() {
        let cases = [
            r#"{}"#,
            r#"{"a":1}"#,
            r#" { "a" : [ 1 , -2.5e+3 , true , false , null , "x" , { } , [ ] ] } "#,
            r#"{"a":01}"#,
            r#"{"a":-}"#,
            r#"{"a":1.}"#,
            r#"{"a":1e}"#,
            r#"{"a":.5}"#,
            r#"{"a":[1,]}"#,
            r#"{"a":1,}"#,
            r#"{"a" 1}"#,
            r#"{a:1}"#,
            r#"{"a":tru}"#,
            r#"{"a":"\q"}"#,
            r#"{"a":"\u12G4"}"#,
            r#"{"a":"\ud800"}"#,
            r#"{"a":"\udc00"}"#,
            r#"{"a":"\ud83d\ude00"}"#,
            r#"{"a":"\uD83D\uDE00"}"#,
            r#"{"a":"\uDBFF\uDFFF"}"#,
            r#"{"a":"\ud800\u0041"}"#,
            r#"{"a":"\ud800\ud800"}"#,
            r#"{"a":"\ud800\\udc00"}"#,
            r#"{"a":"\ud800\n"}"#,
            r#"{"a":"\ud800"#,
            r#"{"a":"\\ud800"}"#,
            r#"{"a":"\ude00\ud83d"}"#,
            r#"{"\ud800":1}"#,
            r#"{"a":"\u00e9\uFFFF\ucafe"}"#,
            "{\"a\":\"tab\there\"}",
            r#"{"a":"é → 日本"}"#,
            r#"{"a":1} x"#,
            r#"{"a":1}}"#,
            r#"{"a":[1}"#,
            r#"{"a":{"b":]}}"#,
            r#"{"a":"unterminated}"#,
            "{\"a\":\"\\\"}",
            r#"{"a":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]}"#,
            r#"{"a":+1}"#,
            r#"{"a":1E+2,"b":0.0e-0}"#,
            "{\"a\":\u{a0}1}",
        ];
        for c in cases {
            let fast = scan(c.as_bytes()).is_some();
            if fast {
                assert!(serde_ok(c), "scanner accepted what serde rejects: {c}");
            }
            // Everything here but the duplicates/escapes is plain: both must agree.
            assert_eq!(fast, serde_ok(c), "{c}");
        }
    }

    #[test]
    fn long_strings_cross_block_boundaries() {
        for n in 0..80 {
            for bad in [None, Some('\u{1}'), Some('é')] {
                let mut s = "x".repeat(n);
                if let Some(b) = bad {
                    s.push(b);
                }
                s.push_str(&"y".repeat(n % 7));
                let line = format!("{{\"a\":\"{s}\",\"b\":\"{}\\n\"}}", "z".repeat(n));
                assert_eq!(scan(line.as_bytes()).is_some(), serde_ok(&line), "{line:?}");
            }
        }
    }

    #[test]
    fn random_strings_agree_with_serde() {
        // Escapes, quotes and odd characters in every position around block boundaries,
        // surrogate escapes (paired, lone, reversed, split by an escaped backslash) among
        // them: a lone one that slipped through would fail here.
        let alphabet: &[&str] = &[
            "a",
            "\\",
            "\"",
            "n",
            "u",
            "0",
            "F",
            "\u{1}",
            "é",
            " ",
            "/",
            "x",
            "d",
            "D",
            "8",
            "c",
            r"\u",
            r"\ud800",
            r"\uDBFF",
            r"\udc00",
            r"\uDfFf",
            r"\u00e9",
            r"\ud83d\ude00",
            r"\uD83D\uDE00",
            r"\uDA",
            r"\u0041",
            r"\\",
        ];
        let mut next = crate::testkit::xorshift(0x2545_f491_4f6c_dd1du64);
        for round in 0..2 * CASES {
            let len = next(150);
            // Shift the string against the 16-, 32- and 64-byte blocks.
            let mut s = "p".repeat(next(70));
            for _ in 0..len {
                s.push_str(alphabet[next(alphabet.len())]);
            }
            // The string as a value, as a payload key, as the payload's `type`, as an
            // envelope key.
            let line = match round % 4 {
                0 => format!("{{\"k\":\"{s}\",\"n\":1}}"),
                1 => format!("{{\"payload\":{{\"{s}\":1}}}}"),
                2 => format!("{{\"payload\":{{\"type\":\"{s}\"}}}}"),
                _ => format!("{{\"{s}\":[1]}}"),
            };
            let fast = scan(line.as_bytes()).is_some();
            assert!(
                !fast || serde_ok(&line),
                "accepted what serde rejects: {line:?}"
            );
            if round % 4 != 3 {
                // Escaped envelope keys are left to serde; everything else is decided here.
                assert_eq!(fast, serde_ok(&line), "{line:?}");
            }
        }
    }

    #[test]
    fn the_plain_and_the_vector_string_paths_agree() {
        // The CPU running the tests takes the AVX2 path; the SSE2 and plain Rust ones must
        // say the same about every string, and stop at the same byte.
        let alphabet: &[&str] = &[
            "a",
            "\\",
            "\"",
            "n",
            "u",
            "t",
            "b",
            "/",
            "q",
            "\u{1}",
            "é",
            r"\ud83d\ude00",
            r"\udc00",
            r"\ud800",
            r"\u00e9",
            r"\uZZ",
            "\u{7f}",
        ];
        let mut next = crate::testkit::xorshift(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..CASES {
            let mut s = "\"".to_string() + &"p".repeat(next(70));
            for _ in 0..next(200) {
                s.push_str(alphabet[next(alphabet.len())]);
            }
            s.push_str("\"}");
            let b = s.as_bytes();
            let mut paths = [Vector::Scalar, Vector::Sse2, Vector::Avx2]
                .into_iter()
                .filter_map(|v| {
                    let mut fields = Vec::new();
                    let mut sc: Scanner<'_> = Scanner {
                        b,
                        i: 1,
                        fields: &mut fields,
                    };
                    let got = match v {
                        Vector::Scalar => sc.long_string_with::<SCALAR>(1, 1),
                        Vector::Sse2 => sc.long_string_with::<SSE2>(1, 1),
                        // SAFETY: only where the CPU has AVX2.
                        Vector::Avx2 if avx2() => unsafe { sc.long_string_avx2(1, 1) },
                        Vector::Avx2 => return None,
                    };
                    Some((v, got, sc.i))
                });
            let (_, want, end) = paths.next().unwrap();
            for (v, got, at) in paths {
                assert_eq!((got, at), (want, end), "{v:?} {s:?}");
            }
            // And both as serde reads the string.
            let serde = serde_json::from_slice::<String>(&b[..b.len() - 1]).is_ok();
            assert_eq!(want.is_some() && end == b.len() - 1, serde, "{s:?}");
        }
    }

    #[test]
    fn invalid_utf8_inside_a_string_is_not_accepted() {
        let mut line = b"{\"a\":\"".to_vec();
        line.extend_from_slice(&[b'x'; 40]);
        line.push(0xC3);
        line.extend_from_slice(b"\"}");
        assert!(scan(&line).is_none());
        let mut ok = b"{\"a\":\"".to_vec();
        ok.extend_from_slice("x é y".as_bytes());
        ok.extend_from_slice(b"\"}");
        assert!(scan(&ok).is_some());
    }

    #[test]
    fn finds_envelope_fields_and_payload_type() {
        let line = r#"{"timestamp":"t","ordinal":3,"type":"event_msg","payload":{"x":{"type":"inner"},"type":"token_count"},"metadata":null,"extra":[1]}"#;
        let p = scan(line.as_bytes()).unwrap();
        let s = |sp: Option<Span>| sp.map(|(a, b)| &line[a..b]);
        assert_eq!(s(p.timestamp), Some("\"t\""));
        assert_eq!(s(p.ordinal), Some("3"));
        assert_eq!(s(p.type_), Some("\"event_msg\""));
        assert!(s(p.payload).unwrap().starts_with("{\"x\""));
        assert_eq!(p.metadata, None);
        match p.payload_type {
            PayloadType::Plain((a, b)) => assert_eq!(&line[a..b], "token_count"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn gives_up_where_serde_must_decide() {
        // duplicate envelope field
        assert!(scan(br#"{"type":"a","type":"b","payload":{}}"#).is_none());
        // escaped envelope key
        assert!(scan(br#"{"typ\u0065":"a","payload":{}}"#).is_none());
        // duplicate payload type: valid, the last one counts, serde reads it
        let p = scan(br#"{"payload":{"type":"a","type":"b"}}"#).unwrap();
        assert_eq!(p.payload_type, PayloadType::Slow);
        // escaped payload key or type value: serde reads it
        let p = scan(br#"{"payload":{"t\u0079pe":"a"}}"#).unwrap();
        assert_eq!(p.payload_type, PayloadType::Slow);
        let p = scan(br#"{"payload":{"type":"a\nb"}}"#).unwrap();
        assert_eq!(p.payload_type, PayloadType::Slow);
        // null fields are absent
        let p = scan(br#"{"timestamp":null,"payload":null}"#).unwrap();
        assert_eq!((p.timestamp, p.payload), (None, None));
        // not an object
        assert!(scan(b"[1]").is_none());
        // too deep for the scanner
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(100), "]".repeat(100));
        assert!(scan(deep.as_bytes()).is_none());
        assert!(serde_ok(&deep));
    }

    #[test]
    fn the_vector_paths_agree_on_every_testdata_line() {
        // Under Miri, which checks every load and runs far slower than a debug build, every
        // 8th line up to 2 KiB of the hand-made broken files; else every line.
        let (under, max, stride) = if cfg!(miri) {
            ("broken", 2048, 8)
        } else {
            ("", usize::MAX, 1)
        };
        let lines = crate::testkit::lines(under);
        let mut checked = 0;
        for line in lines.iter().filter(|l| l.len() <= max).step_by(stride) {
            let mut want_fields = Vec::new();
            let want = super::scan(line, &mut want_fields);
            for v in [Vector::Scalar, Vector::Sse2, Vector::Avx2] {
                let mut fields = Vec::new();
                if let Some(got) = scan_with(line, &mut fields, v) {
                    assert_eq!(got, want, "{v:?}: {}", String::from_utf8_lossy(line));
                    assert_eq!(fields, want_fields, "{v:?}");
                }
            }
            checked += 1;
        }
        assert!(
            checked * stride > lines.len() / 2,
            "{checked} of {} lines",
            lines.len()
        );
    }
}
