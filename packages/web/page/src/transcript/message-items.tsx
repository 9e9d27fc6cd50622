import { LiteralText } from '../display/literal-text';
import { MarkdownText } from '../markdown/markdown-text';

/** The person's prompt that started a turn. */
export function PromptItem({ text }: { text: string }) {
  return (
    <section className="message prompt" aria-label="Prompt">
      <h3 className="who">You</h3>
      <LiteralText text={text} block />
    </section>
  );
}

/** Text the model wrote, rendered as Markdown (never as HTML; see {@link MarkdownText}). */
export function AssistantItem({ text }: { text: string }) {
  return (
    <section className="message assistant" aria-label="Assistant">
      <h3 className="who">Assistant</h3>
      <MarkdownText text={text} />
    </section>
  );
}

/** A line about the session itself (restored, forked, a failed model request). */
export function NoticeItem({ text }: { text: string }) {
  return (
    <p className="notice">
      <LiteralText text={text} />
    </p>
  );
}

/** Where the model's view was compacted: a divider across the transcript, which itself keeps everything. */
export function CompactionMarker({ text }: { text: string }) {
  return (
    <p className="compaction-marker" role="note">
      <LiteralText text={text} />
    </p>
  );
}
