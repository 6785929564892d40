//! Behaviour shared by every subcommand: inputs, exit codes, pipes, color.
