//! Hostile: provider_stream (filled in by its owner).
