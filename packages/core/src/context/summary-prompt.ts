/** The system prompt of a summary request: what a summary must keep for the work to go on. */
export const SUMMARY_PROMPT = [
  "You summarise a coding agent's conversation so the agent can continue the work without it.",
  'Write plain text under these headings: Task (what the person asked, in their words where it matters),',
  'Decisions (what was decided and why), Files (every file read, created or changed, with what changed),',
  'Commands and errors (commands run, errors met and whether they were fixed), Open todos (what is left),',
  'Next step. Keep exact paths, names, numbers and error codes. Do not invent anything. Do not call tools.',
].join(' ');

/** The last user message of a summary request. */
export function summaryRequestText(todos: string, instructions?: string): string {
  return [
    'Summarise the conversation above following your instructions.',
    todos ? `The current todo list, to keep verbatim:\n${todos}` : '',
    instructions ? `Also keep what this instruction of a PreCompact hook asks for:\n${instructions}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
