//! Hostile: provider_keys (filled in by its owner).
