//! Hostile: config_paths (filled in by its owner).
