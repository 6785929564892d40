//! The scanner differential: any bytes as one line; the scalar, SSE2 and AVX2 paths agree,
//! and whatever the scanner accepts serde reads the same (`rollscope::fuzz::scanner`).
#![no_main]

libfuzzer_sys::fuzz_target!(|line: &[u8]| rollscope::fuzz::scanner(line));
