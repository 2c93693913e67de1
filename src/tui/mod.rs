//! The full-screen terminal front end. Being built (issue 4): the state that folds the
//! orchestrator's events and the pure rendering of the main screen exist; the app loop, the
//! composer, modals and the terminal lifecycle come next.

pub mod render;
pub mod state;
pub mod theme;
