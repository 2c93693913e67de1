//! Hostile: sessions (filled in by its owner).
