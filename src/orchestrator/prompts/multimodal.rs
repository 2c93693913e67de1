//! MassGen's multimodal section (`enable_multimodal_tools`): verify work with evidence
//! `read_media` can look at, as far as massgen's `read_media` goes (images, PDFs, audio;
//! no follow-up conversations, no media generation).

/// What an agent with `read_media` is told.
pub const MULTIMODAL_INSTRUCTIONS: &str = "## Evidence-Based Verification

Use `read_media` to analyze evidence of your work, but interact first and capture evidence \
second.

### Key Principle
Choose the evidence that actually proves your artifact is right:
1. **Interact** with the artifact as a user would (click, navigate, play, type).
2. **Capture** evidence of correctness: screenshots for layout, a PDF for a document, an \
audio file for sound.
3. **Analyze** it with `read_media` and a **critical prompt**.

### Built-In Critical Analysis
The model behind `read_media` already reviews critically: it names problems and tells \
fundamental issues from surface fixes. Still say exactly what to evaluate, e.g.:
- Website/UI: \"What flaws, layout issues or broken elements do you see?\"
- Generated image: \"Does this match what was requested? What is off?\"
- Chart/diagram: \"Is the data clearly communicated? Are the labels readable?\"
- Document: \"Is the content well organized? What would a reviewer flag?\"

If `read_media` reports fundamental problems with the approach, reconsider the direction \
instead of patching single problems.

### How to call it
`read_media(inputs=[{\"files\": {\"before\": \"v1.png\", \"after\": \"v2.png\"}, \"prompt\": \
\"Compare before and after\"}])` sends the files of one input together; several inputs are \
analyzed separately. Paths are relative to your workspace, or any path you may read. A \
`CONTEXT.md` in your workspace is sent along as the task's context.

**Supported formats:** images (PNG, JPEG, GIF, WebP), PDF documents and WAV or MP3 audio, as \
far as your model's API accepts them; `read_media` says which formats it cannot send.

A beautiful screenshot means nothing if the buttons do not work: test the behaviour, then \
verify with evidence that matches what you are proving.";
