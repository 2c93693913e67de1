//! The code highlighter's tables, written to OUT_DIR for `src/tui/state/code.rs` to embed:
//! the syntaxes of syntect's default set that agents write answers in (a third of the set's
//! 368 KB dropped from the binary), and the one theme the TUI draws with.

use std::error::Error;
use std::path::Path;

use syntect::dumps::{dump_to_file, dump_to_uncompressed_file};
use syntect::highlighting::ThemeSet;
use syntect::parsing::syntax_definition::{
    Context, ContextId, ContextReference, MatchOperation, Pattern,
};
use syntect::parsing::{SyntaxSet, SyntaxSetBuilder};

/// The syntaxes kept, by name: the languages of answers' code blocks, and the syntaxes those
/// embed or include (JavaDoc, the regular-expression syntaxes, the shell's parts, PHP Source,
/// TeX). A code block in any other language is drawn as plain text, as an unknown one is.
const KEPT_SYNTAXES: &[&str] = &[
    "Plain Text",
    "Batch File",
    "C",
    "C++",
    "C#",
    "CSS",
    "Diff",
    "Go",
    "HTML",
    "Haskell",
    "Java",
    "JavaDoc",
    "JSON",
    "JavaScript",
    "Regular Expressions (Javascript)",
    "LaTeX",
    "TeX",
    "Lua",
    "Makefile",
    "Markdown",
    "Objective-C",
    "PHP",
    "PHP Source",
    "Perl",
    "Python",
    "Regular Expressions (Python)",
    "R",
    "Ruby",
    "Rust",
    "SQL",
    "Scala",
    "Bourne Again Shell (bash)",
    "Shell-Unix-Generic",
    "commands-builtin-shell-bash",
    "XML",
    "YAML",
];

/// The theme `src/tui/state/code.rs` colours code with.
const THEME: &str = "base16-ocean.dark";

/// Writes `syntaxes.packdump` (read with `syntect::dumps::from_uncompressed_data`) and
/// `theme.themedump` (read with `syntect::dumps::from_reader`) into `out_dir`.
pub fn write_tables(out_dir: &Path) -> Result<(), Box<dyn Error>> {
    dump_to_uncompressed_file(&kept_syntaxes()?, out_dir.join("syntaxes.packdump"))?;
    let theme = ThemeSet::load_defaults()
        .themes
        .remove(THEME)
        .ok_or("syntect's default themes lost base16-ocean.dark")?;
    dump_to_file(&theme, out_dir.join("theme.themedump"))?;
    Ok(())
}

/// syntect's default syntaxes (the variant for lines that end in `\n`) less those not in
/// [`KEPT_SYNTAXES`], relinked: a reference into a dropped syntax (LaTeX's `minted` blocks
/// of Lisp or Objective-C++) goes to Plain Text instead, as syntect links an `embed` whose
/// syntax is missing.
fn kept_syntaxes() -> Result<SyntaxSet, Box<dyn Error>> {
    let all = SyntaxSet::load_defaults_newlines().into_builder();
    let definitions = all.syntaxes();
    let mut new_index = vec![None; definitions.len()];
    let mut kept = Vec::new();
    for name in KEPT_SYNTAXES {
        if !definitions.iter().any(|syntax| syntax.name == *name) {
            return Err(format!("syntect's default syntaxes lost {name}").into());
        }
    }
    for (old, definition) in definitions.iter().enumerate() {
        if KEPT_SYNTAXES.contains(&definition.name.as_str()) {
            new_index[old] = Some(kept.len());
            kept.push(definition.clone());
        }
    }
    let plain_text = kept
        .iter()
        .position(|syntax| syntax.name == "Plain Text")
        .ok_or("no Plain Text syntax")?;
    // A syntax's contexts are numbered in the order of their names (SyntaxSetBuilder::build).
    let mut plain_contexts: Vec<&String> = kept[plain_text].contexts.keys().collect();
    plain_contexts.sort();
    let plain_main = plain_contexts
        .iter()
        .position(|name| *name == "main")
        .ok_or("Plain Text has no main context")?;
    let relink = Relink {
        new_index,
        fallback: context_id(plain_text, plain_main)?,
    };
    let mut builder = SyntaxSetBuilder::new();
    for mut definition in kept {
        for context in definition.contexts.values_mut() {
            relink.context(context)?;
        }
        builder.add(definition);
    }
    Ok(builder.build())
}

/// Renumbers the links between contexts for the syntaxes kept.
struct Relink {
    /// Per syntax of the full set, its index among those kept.
    new_index: Vec<Option<usize>>,
    /// Where a link into a dropped syntax goes: Plain Text's main context.
    fallback: ContextId,
}

impl Relink {
    fn context(&self, context: &mut Context) -> Result<(), Box<dyn Error>> {
        if let Some(prototype) = context.prototype.as_mut() {
            *prototype = self.id(prototype)?;
        }
        for pattern in &mut context.patterns {
            match pattern {
                Pattern::Include(reference) => self.reference(reference)?,
                Pattern::Match(matched) => {
                    if let Some(reference) = matched.with_prototype.as_mut() {
                        self.reference(reference)?;
                    }
                    if let MatchOperation::Push(references) | MatchOperation::Set(references) =
                        &mut matched.operation
                    {
                        for reference in references {
                            self.reference(reference)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn reference(&self, reference: &mut ContextReference) -> Result<(), Box<dyn Error>> {
        if let ContextReference::Direct { 0: id, .. } = reference {
            *id = self.id(id)?;
        }
        Ok(())
    }

    fn id(&self, id: &ContextId) -> Result<ContextId, Box<dyn Error>> {
        let (syntax, context) = context_parts(id)?;
        match self.new_index.get(syntax).copied().flatten() {
            Some(kept) => context_id(kept, context),
            None => Ok(self.fallback),
        }
    }
}

/// `ContextId`'s fields are private to syntect; they are read and written through its serde
/// form, the two indices in order.
fn context_parts(id: &ContextId) -> Result<(usize, usize), Box<dyn Error>> {
    Ok(bincode::deserialize(&bincode::serialize(id)?)?)
}

fn context_id(syntax: usize, context: usize) -> Result<ContextId, Box<dyn Error>> {
    Ok(bincode::deserialize(&bincode::serialize(&(
        syntax, context,
    ))?)?)
}
