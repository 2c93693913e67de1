//! The scripted option `quiz`: answer questions from an answer key with a set accuracy,
//! for offline evals (`massgen eval`).
//!
//! ```yaml
//! quiz:
//!   answers: @examples/eval-demo   # or a JSONL file (question, answer, choices per line);
//!                                  # a relative path is read from the current directory
//!   accuracy: 0.7                  # the chance of answering each question right
//!   seed: 3                        # agents with different seeds err independently
//! ```

use crate::config::error::Problem;
use crate::config::fields::Fields;

#[derive(Clone, Debug, PartialEq)]
pub struct QuizOptions {
    /// Where the answer key is: a JSONL path or `@examples/NAME`.
    pub answers: String,
    /// In `[0, 1]`.
    pub accuracy: f64,
    pub seed: u64,
}

pub(super) fn parse_quiz(backend: &Fields<'_>) -> Result<Option<QuizOptions>, Problem> {
    let Some(node) = backend.get("quiz") else {
        return Ok(None);
    };
    let quiz = Fields::of(node, backend.key_path("quiz"))?;
    let answers = quiz.required_string("answers", "@examples/eval-demo")?;
    let accuracy = quiz.number("accuracy")?.unwrap_or(1.0);
    if !(0.0..=1.0).contains(&accuracy) {
        return Err(Problem::at(
            quiz.get("accuracy").map_or(quiz.loc(), |node| node.loc),
            format!("`{}` must be between 0 and 1", quiz.key_path("accuracy")),
        )
        .help("0.7 answers seven questions in ten right"));
    }
    Ok(Some(QuizOptions {
        answers,
        accuracy,
        seed: quiz.unsigned("seed")?.unwrap_or(0),
    }))
}
