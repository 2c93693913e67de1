//! Hostile: sandbox (filled in by its owner).
