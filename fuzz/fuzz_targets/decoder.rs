//! The decoder as a whole: any bytes, read in any pieces through any buffer, with any line
//! limit, give the same lines, accounting for every byte (`rollscope::fuzz::decoder`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rollscope::fuzz::decoder(data));
