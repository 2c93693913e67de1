//! Hostile: input (filled in by its owner).
