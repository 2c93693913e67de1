//! Hostile: terminal (filled in by its owner).
