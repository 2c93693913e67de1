//! The full-screen terminal front end. Being built (issue 4): so far the state that folds
//! the orchestrator's events; the screens, the app loop and the composer come next.

pub mod state;
