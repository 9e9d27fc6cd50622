import { ClawsmithError, defineTool, toolSuccess, type AnyToolDefinition } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import type { TodoItem } from '../store/session-records.js';
import type { SessionStore } from '../store/session-store.js';

const MAX_TODOS = 100;

const todoItemSchema = z.object({
  content: z.string().trim().min(1, 'a todo needs text').max(500),
  status: z.enum(['pending', 'in_progress', 'completed']),
});

const todoWriteSchema = z.object({
  todos: z.array(todoItemSchema).max(MAX_TODOS).describe('The whole new list; it replaces the old one.'),
});

const STATUS_MARK: Record<TodoItem['status'], string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

/** Renders a todo list as the text the model and the terminal see. */
export function renderTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return 'The todo list is empty.';
  return todos.map((todo, index) => `${index + 1}. ${STATUS_MARK[todo.status]} ${todo.content}`).join('\n');
}

/**
 * The session tools: `todo_write` replaces the whole list (at most one item in progress) and
 * `todo_list` reads it. Both are session-scoped and persisted in `session_todos`; neither
 * touches files or runs commands.
 */
export function createTodoTools(
  store: SessionStore,
  onChange?: (sessionId: string, todos: readonly TodoItem[]) => Promise<void>,
): AnyToolDefinition[] {
  const todoWrite = defineTool({
    name: 'todo_write',
    description:
      'Replace the whole task list of this session. Each item has content and a status (pending, in_progress, completed); at most one item may be in progress. Use it to plan multi-step work and to show progress.',
    risk: 'read',
    capabilities: ['session.write'],
    concurrencySafe: false,
    inputSchema: todoWriteSchema,
    summarize: (input) => `update the todo list (${input.todos.length} items)`,
    async execute(input, context) {
      const inProgress = input.todos.filter((todo) => todo.status === 'in_progress').length;
      if (inProgress > 1) {
        throw new ClawsmithError(
          'todo_invalid',
          `${inProgress} items are in_progress; at most one may be. Mark the others pending or completed and write the list again.`,
        );
      }
      await store.setTodos(context.sessionId, input.todos);
      await onChange?.(context.sessionId, input.todos);
      return toolSuccess(`The todo list now has ${input.todos.length} items:\n${renderTodos(input.todos)}`, {
        display: { kind: 'text', title: `Todos (${input.todos.length})`, body: renderTodos(input.todos) },
      });
    },
  });
  const todoList = defineTool({
    name: 'todo_list',
    description: 'Read the task list of this session.',
    risk: 'read',
    capabilities: ['session.read'],
    concurrencySafe: true,
    inputSchema: z.object({}),
    summarize: () => 'read the todo list',
    async execute(_input, context) {
      const todos = await store.getTodos(context.sessionId);
      return toolSuccess(renderTodos(todos), {
        display: { kind: 'text', title: `Todos (${todos.length})`, body: renderTodos(todos) },
      });
    },
  });
  return [todoWrite, todoList];
}
