//! Hostile: workspace_escape (filled in by its owner).
