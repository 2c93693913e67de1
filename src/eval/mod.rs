//! `massgen eval`: runs a dataset's questions through configs and strategies, scores the
//! answers, and shows which strategy is worth its cost.

pub mod csv_table;
pub mod dataset;
pub mod demo;
pub mod extract;
pub mod item_fields;
pub mod judge;
pub mod progress;
pub mod record;
pub mod report;
pub mod runner;
pub mod score;
pub mod summary;
