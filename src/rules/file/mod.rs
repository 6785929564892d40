//! The file as a whole: what it starts and ends with, its name and place.

group![
    bom,
    empty,
    no_final_newline,
    name,
    location,
    zst_shadowed,
    zst_corrupt,
    zst_unsupported
];
