//! Why a model call failed, and whether trying again could help.

use std::time::Duration;

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BackendError {
    /// The provider or the stream reported an error that retrying will not fix.
    #[error("{message}")]
    Failed { message: String },
    /// The stream ended without the provider's finish marker; the response is incomplete.
    #[error("the response was cut off before the model finished")]
    Truncated,
    /// The provider refused the key (401/403).
    #[error("invalid key for {provider}: {fix}{}", detail_suffix(detail))]
    Auth {
        provider: String,
        /// What to do, e.g. "set ANTHROPIC_API_KEY".
        fix: String,
        detail: String,
    },
    /// The provider does not know the model (404).
    #[error(
        "{provider} has no model `{model}`: check `model` in the config{}",
        detail_suffix(detail)
    )]
    ModelNotFound {
        provider: String,
        model: String,
        detail: String,
    },
    /// The conversation no longer fits the model's context window.
    #[error(
        "the conversation is longer than {model}'s context window{}",
        detail_suffix(detail)
    )]
    ContextLength { model: String, detail: String },
    /// 429: too many requests; `retry_after` is the provider's hint.
    #[error("{provider} rate limit hit{}", detail_suffix(detail))]
    RateLimited {
        provider: String,
        retry_after: Option<Duration>,
        detail: String,
    },
    /// 5xx, 408, 409 or an overload error event: the provider's side failed.
    #[error("{provider} server error {status}{}", detail_suffix(detail))]
    Server {
        provider: String,
        status: u16,
        retry_after: Option<Duration>,
        detail: String,
    },
    /// The connection could not be made or broke before any response.
    #[error("cannot reach {provider}: {detail}")]
    Connection { provider: String, detail: String },
    /// Nothing arrived for the configured time.
    #[error("{provider} sent nothing for {}", seconds(*after))]
    Timeout { provider: String, after: Duration },
    /// The stream held something unreadable (a chunk that is not JSON, bytes that are not
    /// UTF-8); handled like a cut stream.
    #[error("{message}")]
    Malformed { message: String },
    /// The response went past one of the `limits:` caps; handled like a cut stream.
    #[error("{message}")]
    OverLimit { message: String },
}

/// "300 s", "0.3 s".
pub(crate) fn seconds(duration: Duration) -> String {
    let value = duration.as_secs_f64();
    if value >= 10.0 || value.fract() == 0.0 {
        format!("{value:.0} s")
    } else {
        format!("{value:.1} s")
    }
}

fn detail_suffix(detail: &str) -> String {
    if detail.is_empty() {
        String::new()
    } else {
        format!(" ({detail})")
    }
}

impl BackendError {
    /// The same error with every occurrence of `secret` in its text replaced by `***`.
    pub fn redact(self, secret: &str) -> Self {
        let clean = |text: String| {
            if secret.is_empty() {
                text
            } else {
                text.replace(secret, "***")
            }
        };
        match self {
            Self::Failed { message } => Self::Failed {
                message: clean(message),
            },
            Self::Truncated => Self::Truncated,
            Self::Auth {
                provider,
                fix,
                detail,
            } => Self::Auth {
                provider,
                fix,
                detail: clean(detail),
            },
            Self::ModelNotFound {
                provider,
                model,
                detail,
            } => Self::ModelNotFound {
                provider,
                model,
                detail: clean(detail),
            },
            Self::ContextLength { model, detail } => Self::ContextLength {
                model,
                detail: clean(detail),
            },
            Self::RateLimited {
                provider,
                retry_after,
                detail,
            } => Self::RateLimited {
                provider,
                retry_after,
                detail: clean(detail),
            },
            Self::Server {
                provider,
                status,
                retry_after,
                detail,
            } => Self::Server {
                provider,
                status,
                retry_after,
                detail: clean(detail),
            },
            Self::Connection { provider, detail } => Self::Connection {
                provider,
                detail: clean(detail),
            },
            Self::Timeout { provider, after } => Self::Timeout { provider, after },
            Self::Malformed { message } => Self::Malformed {
                message: clean(message),
            },
            Self::OverLimit { message } => Self::OverLimit {
                message: clean(message),
            },
        }
    }

    /// Whether the same request may succeed later.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Truncated
            | Self::RateLimited { .. }
            | Self::Server { .. }
            | Self::Connection { .. }
            | Self::Timeout { .. }
            | Self::Malformed { .. }
            | Self::OverLimit { .. } => true,
            Self::Failed { .. }
            | Self::Auth { .. }
            | Self::ModelNotFound { .. }
            | Self::ContextLength { .. } => false,
        }
    }

    /// How long the provider asked us to wait before trying again.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::RateLimited { retry_after, .. } | Self::Server { retry_after, .. } => {
                *retry_after
            }
            Self::Failed { .. }
            | Self::Truncated
            | Self::Auth { .. }
            | Self::ModelNotFound { .. }
            | Self::ContextLength { .. }
            | Self::Connection { .. }
            | Self::Timeout { .. }
            | Self::Malformed { .. }
            | Self::OverLimit { .. } => None,
        }
    }

    /// A few words for a retry notice: "rate limited", "server error 503", ….
    pub fn short_reason(&self) -> String {
        match self {
            Self::Failed { .. } => "failed".into(),
            Self::Truncated => "stream cut off".into(),
            Self::Auth { .. } => "invalid key".into(),
            Self::ModelNotFound { .. } => "unknown model".into(),
            Self::ContextLength { .. } => "context too long".into(),
            Self::RateLimited { .. } => "rate limited".into(),
            Self::Server { status, .. } => format!("server error {status}"),
            Self::Connection { .. } => "connection failed".into(),
            Self::Timeout { after, .. } => format!("no response for {}", seconds(*after)),
            Self::Malformed { .. } => "malformed stream".into(),
            Self::OverLimit { .. } => "response over a limit".into(),
        }
    }
}
