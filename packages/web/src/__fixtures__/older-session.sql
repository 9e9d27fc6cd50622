-- A session as an older clawsmith wrote it: tool messages carry only their text content, without
-- the structured toolResult that newer versions add. Applied to a freshly migrated home.
insert into session (id, workspace_root, title, parent_session_id, forked_at_turn_id, activation_json, created_at, updated_at)
values ('older-session', '/tmp/older-workspace', 'an old session', null, null, '[]', '2025-01-02T10:00:00.000Z', '2025-01-02T10:05:00.000Z');
insert into session_message (session_id, position, turn_id, role, message_json, created_at) values
('older-session', 1, 'older-turn', 'user', '{"role":"user","text":"tidy up"}', '2025-01-02T10:00:01.000Z'),
('older-session', 2, 'older-turn', 'assistant', '{"role":"assistant","text":"","toolCalls":[{"id":"c1","name":"read_file","argumentsText":"{\"path\":\"a.txt\"}"},{"id":"c2","name":"run_command","argumentsText":"{\"command\":\"sudo rm -rf /\"}"},{"id":"c3","name":"edit_file","argumentsText":"{}"},{"id":"c4","name":"run_command","argumentsText":"{\"command\":\"sleep 100\"}"},{"id":"c5","name":"write_file","argumentsText":"{}"}]}', '2025-01-02T10:00:02.000Z'),
('older-session', 3, 'older-turn', 'tool', '{"role":"tool","toolCallId":"c1","toolName":"read_file","content":"1: hello"}', '2025-01-02T10:00:03.000Z'),
('older-session', 4, 'older-turn', 'tool', '{"role":"tool","toolCallId":"c2","toolName":"run_command","content":"Permission denied: the command was refused."}', '2025-01-02T10:00:04.000Z'),
('older-session', 5, 'older-turn', 'tool', '{"role":"tool","toolCallId":"c3","toolName":"edit_file","content":"Error: old text not found in a.txt"}', '2025-01-02T10:00:05.000Z'),
('older-session', 6, 'older-turn', 'tool', '{"role":"tool","toolCallId":"c4","toolName":"run_command","content":"Cancelled by the user."}', '2025-01-02T10:00:06.000Z'),
('older-session', 7, 'older-turn', 'tool', '{"role":"tool","toolCallId":"c5","toolName":"write_file","content":"Interrupted: the process stopped while write_file was running."}', '2025-01-02T10:00:07.000Z'),
('older-session', 8, 'older-turn', 'assistant', '{"role":"assistant","text":"Done.","toolCalls":[]}', '2025-01-02T10:00:08.000Z');
insert into session_turn (session_id, turn_id, ordinal, prompt, status, activation_json, owner_pid, started_at, completed_at)
values ('older-session', 'older-turn', 1, 'tidy up', 'completed', '[]', 1, '2025-01-02T10:00:01.000Z', '2025-01-02T10:00:09.000Z');
insert into session_event (session_id, sequence, type, turn_id, payload_json, created_at) values
('older-session', 1, 'session.created', null, '{"workspaceRoot":"/tmp/older-workspace"}', '2025-01-02T10:00:00.000Z'),
('older-session', 2, 'turn.started', 'older-turn', '{"prompt":"tidy up"}', '2025-01-02T10:00:01.000Z'),
('older-session', 3, 'turn.completed', 'older-turn', '{"status":"completed"}', '2025-01-02T10:00:09.000Z');
