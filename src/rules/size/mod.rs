//! Sizes worth knowing.

group![large];
