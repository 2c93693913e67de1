//! Hostile: output_file (filled in by its owner).
