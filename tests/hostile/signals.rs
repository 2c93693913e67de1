//! Hostile: signals (filled in by its owner).
