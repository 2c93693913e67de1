//! Front ends without a full screen: the line-oriented `plain` printer.

mod plain;
mod style;

pub use plain::{PlainPrinter, Verbosity};
pub use style::Style;
