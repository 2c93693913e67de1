//! Why a model call failed.

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BackendError {
    /// The provider or the stream reported an error.
    #[error("{message}")]
    Failed { message: String },
    /// The stream ended without the provider's finish marker; the response is incomplete.
    #[error("the response was cut off before the model finished")]
    Truncated,
}
