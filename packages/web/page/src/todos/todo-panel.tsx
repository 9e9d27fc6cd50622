import type { TodoItem } from '../api/api-types';
import { LiteralText } from '../display/literal-text';

const MARKS: Record<TodoItem['status'], string> = { pending: '☐', in_progress: '◐', completed: '☑' };

/** The session's todo list, as the agent last wrote it; nothing at all while it is empty. */
export function TodoPanel({ todos }: { todos: readonly TodoItem[] | undefined }) {
  if (!todos || todos.length === 0) return null;
  return (
    <section className="panel todos" aria-labelledby="todos-heading">
      <h2 id="todos-heading">Todos</h2>
      <ul>
        {todos.map((todo, index) => (
          <li key={index} className={`todo todo-${todo.status}`}>
            <span aria-hidden="true">{MARKS[todo.status]}</span> <LiteralText text={todo.content} limit={500} />{' '}
            <span className="visually-hidden">({todo.status.replace('_', ' ')})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
