//! A fork's own record of where it forked.

group![boundary];
