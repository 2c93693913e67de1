//! Hostile: provider_memory (filled in by its owner).
