//! A task the driver started (an agent's round, the winner's presentation or its check):
//! its result always comes back to the driver, a panic included, and the driver can stop it.

use std::any::Any;
use std::panic::AssertUnwindSafe;

use futures::FutureExt;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub(super) struct Running {
    cancel: CancellationToken,
    handle: JoinHandle<()>,
}

impl Running {
    /// Runs `work` on its own task and hands its result to `on_end`. A panic inside `work`
    /// arrives as `Err(message)`, so the driver always hears back; a cancelled task reports
    /// nothing.
    pub(super) fn spawn<T, F>(
        work: F,
        on_end: impl FnOnce(Result<T, String>) + Send + 'static,
    ) -> Self
    where
        F: Future<Output = T> + Send + 'static,
        T: Send + 'static,
    {
        let cancel = CancellationToken::new();
        let token = cancel.clone();
        let handle = tokio::spawn(async move {
            tokio::select! {
                result = AssertUnwindSafe(work).catch_unwind() => {
                    on_end(result.map_err(|panic| panic_message(panic.as_ref())));
                }
                () = token.cancelled() => {}
            }
        });
        Self { cancel, handle }
    }

    pub(super) fn stop(self) {
        self.cancel.cancel();
        self.handle.abort();
    }
}

fn panic_message(panic: &(dyn Any + Send)) -> String {
    let detail = panic
        .downcast_ref::<&str>()
        .map(|text| (*text).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown cause".into());
    format!("internal error (a bug in massgen, please report it): {detail}")
}
