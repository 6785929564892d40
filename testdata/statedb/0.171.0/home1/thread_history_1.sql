BEGIN TRANSACTION;
CREATE TABLE _sqlx_migrations (
    version BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    success BOOLEAN NOT NULL,
    checksum BLOB NOT NULL,
    execution_time BIGINT NOT NULL
);
INSERT INTO "_sqlx_migrations" VALUES(1,'thread history','2026-12-03 03:53:48',1,X'2AD9A4AB17DF511FB73F03337133DE94A172DC0A1F5729B5EF61FE106DB03D1A43BDB5978B0CB7D7BC74071D3CA34A92',1500858);
INSERT INTO "_sqlx_migrations" VALUES(2,'thread items item type','2026-12-03 03:53:48',1,X'AE61DBC1A6422530AA93914DBCAC363A0238B86AE1A9D77EB041C75330E1283A0FCF93A043DEEEFCD6FD2C4037694BC4',1362228);
INSERT INTO "_sqlx_migrations" VALUES(3,'turn rollout positions','2026-12-03 03:53:48',1,X'A51DA2A11DF7760D8F8CAB221E82B36CE8C0A30F16D44F3602E7F0FBC622CA72F1C3E3ECF22A194E12C2222BDCB51AFE',12498259);
INSERT INTO "_sqlx_migrations" VALUES(4,'thread items updated at ordinal','2026-12-03 03:53:48',1,X'65F33B171BD3AAFE9D24728B2CA6A5C720A3AB54AED472998F8ACF7489F0D35B2DFD12258A2D17BE993BF17098B5E50C',2607925);
INSERT INTO "_sqlx_migrations" VALUES(5,'thread realtime items','2026-12-03 03:53:48',1,X'2FDAD8E361DC1F828AFACF10BD2EB1F511B02DEEF7FA234A9C412D0211DE126D1CFAD54B175C9C3A9731548F9084B437',2237295);
INSERT INTO "_sqlx_migrations" VALUES(6,'thread turn ends','2026-12-03 03:53:48',1,X'02ED82D375ADB58B5C0C09E0154F3331D507CEA7AF446D12324E5653CDBA9A91F84AFD38CF2A29F33030614689DEB9DE',663382);
INSERT INTO "_sqlx_migrations" VALUES(7,'thread item lifecycle timestamps','2026-12-03 03:53:48',1,X'9334ADB4CDA792116A47B69A19E3840AE3806B08773EF1794043FE0AA72891360ACB1A0A8431084D53C568482C5FDD20',2269813);
INSERT INTO "_sqlx_migrations" VALUES(8,'thread turn root','2026-12-03 03:53:48',1,X'94635CD58535ADB1679F4AD07A9D14231B69004405FA88A22DB1B6A7E5FEAC8B6B66AD97EA16FCE464B99BFF5B3548D3',1002583);
INSERT INTO "_sqlx_migrations" VALUES(9,'realtime observation indexes','2026-12-03 03:53:48',1,X'4DEF92EA0F557EC6333BFE80798C89EB5AC3BD569058A502846FC630AED20F774CD8DE3628CD8AF740C1BE94DD8216B1',712040);
CREATE TABLE thread_history_projection_state (
    thread_id TEXT PRIMARY KEY,
    next_rollout_byte_offset INTEGER NOT NULL,
    next_rollout_ordinal INTEGER NOT NULL
);
INSERT INTO "thread_history_projection_state" VALUES('01a23a09-771b-7211-b366-5b4d0b149589',59664,45);
CREATE TABLE thread_items (
    thread_id TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    item_id TEXT NOT NULL,
    rollout_ordinal INTEGER NOT NULL,
    created_at_ms INTEGER NOT NULL,
    item_json TEXT NOT NULL, item_type TEXT NOT NULL DEFAULT '', updated_at_ordinal INTEGER NOT NULL DEFAULT 0, started_at_ms INTEGER, completed_at_ms INTEGER,
    PRIMARY KEY (thread_id, turn_id, item_id)
);
INSERT INTO "thread_items" VALUES('01a23a09-771b-7211-b366-5b4d0b149589','01a23a09-7798-7ff2-b3e3-ce04f6cb128f','01a23a09-781e-7811-b5a7-90918e5076fe',8,1796270028832,'{"type":"userMessage","id":"01a23a09-781e-7811-b5a7-90918e5076fe","clientId":null,"content":[{"type":"text","text":"Look around the repo, run hello.py and tell me.","text_elements":[]}]}','userMessage',8,1796270028832,1796270028832);
INSERT INTO "thread_items" VALUES('01a23a09-771b-7211-b366-5b4d0b149589','01a23a09-7798-7ff2-b3e3-ce04f6cb128f','rs_resp_sdb_1',9,1796270028963,'{"type":"reasoning","id":"rs_resp_sdb_1","summary":["I should look at the files first."],"content":[]}','reasoning',9,1796270028963,1796270028963);
INSERT INTO "thread_items" VALUES('01a23a09-771b-7211-b366-5b4d0b149589','01a23a09-7798-7ff2-b3e3-ce04f6cb128f','msg_resp_sdb_1',11,1796270028969,'{"type":"agentMessage","moderation":null,"id":"msg_resp_sdb_1","text":"I''ll list the files and read the README.","phase":null,"memoryCitation":null,"delivery":null,"questions":null}','agentMessage',11,1796270028969,1796270028969);
INSERT INTO "thread_items" VALUES('01a23a09-771b-7211-b366-5b4d0b149589','01a23a09-7798-7ff2-b3e3-ce04f6cb128f','call_ls',16,1796270029066,'{"type":"commandExecution","id":"call_ls","pluginId":null,"scriptPath":null,"command":"/bin/bash -lc ''ls -la''","cwd":"/workspace/demo","processId":"9886","source":"unifiedExecStartup","status":"completed","commandActions":[{"type":"listFiles","command":"ls -la","path":null}],"aggregatedOutput":"total 16\ndrwxr-xr-x 2 root root 4096 Dec  3 03:53 .\ndrwxr-xr-x 3 root root 4096 Dec  3 03:53 ..\n-rw-r--r-- 1 root root   28 Dec  3 03:53 README.md\n-rw-r--r-- 1 root root   48 Dec  3 03:53 hello.py\n","exitCode":0,"durationMs":0}','commandExecution',16,1796270029066,1796270029071);
INSERT INTO "thread_items" VALUES('01a23a09-771b-7211-b366-5b4d0b149589','01a23a09-7798-7ff2-b3e3-ce04f6cb128f','call_cat',17,1796270029066,'{"type":"commandExecution","id":"call_cat","pluginId":null,"scriptPath":null,"command":"/bin/bash -lc ''cat README.md''","cwd":"/workspace/demo","processId":"1042","source":"unifiedExecStartup","status":"completed","commandActions":[{"type":"read","command":"cat README.md","name":"README.md","path":"/workspace/demo/README.md"}],"aggregatedOutput":"# demo\nA tiny demo project.\n","exitCode":0,"durationMs":0}','commandExecution',17,1796270029066,1796270029071);
INSERT INTO "thread_items" VALUES('01a23a09-771b-7211-b366-5b4d0b149589','01a23a09-7798-7ff2-b3e3-ce04f6cb128f','rs_resp_sdb_2',21,1796270029182,'{"type":"reasoning","id":"rs_resp_sdb_2","summary":["Check for the notes file the user mentioned."],"content":[]}','reasoning',21,1796270029182,1796270029182);
INSERT INTO "thread_items" VALUES('01a23a09-771b-7211-b366-5b4d0b149589','01a23a09-7798-7ff2-b3e3-ce04f6cb128f','call_missing',25,1796270029279,'{"type":"commandExecution","id":"call_missing","pluginId":null,"scriptPath":null,"command":"/bin/bash -lc ''cat missing.txt''","cwd":"/workspace/demo","processId":"41095","source":"unifiedExecStartup","status":"failed","commandActions":[{"type":"read","command":"cat missing.txt","name":"missing.txt","path":"/workspace/demo/missing.txt"}],"aggregatedOutput":"cat: missing.txt: No such file or directory\n","exitCode":1,"durationMs":0}','commandExecution',25,1796270029279,1796270029279);
INSERT INTO "thread_items" VALUES('01a23a09-771b-7211-b366-5b4d0b149589','01a23a09-7798-7ff2-b3e3-ce04f6cb128f','rs_resp_sdb_3',28,1796270029373,'{"type":"reasoning","id":"rs_resp_sdb_3","summary":["Run the program, then a command that fails on purpose."],"content":[]}','reasoning',28,1796270029373,1796270029373);
INSERT INTO "thread_items" VALUES('01a23a09-771b-7211-b366-5b4d0b149589','01a23a09-7798-7ff2-b3e3-ce04f6cb128f','call_fail',33,1796270029485,'{"type":"commandExecution","id":"call_fail","pluginId":null,"scriptPath":null,"command":"/bin/bash -lc ''exit 3''","cwd":"/workspace/demo","processId":"92973","source":"unifiedExecStartup","status":"failed","commandActions":[{"type":"unknown","command":"exit 3"}],"aggregatedOutput":null,"exitCode":3,"durationMs":0}','commandExecution',33,1796270029485,1796270029485);
INSERT INTO "thread_items" VALUES('01a23a09-771b-7211-b366-5b4d0b149589','01a23a09-7798-7ff2-b3e3-ce04f6cb128f','call_run',34,1796270029531,'{"type":"commandExecution","id":"call_run","pluginId":null,"scriptPath":null,"command":"/bin/bash -lc ''python3 hello.py''","cwd":"/workspace/demo","processId":"19166","source":"unifiedExecStartup","status":"completed","commandActions":[{"type":"unknown","command":"python3 hello.py"}],"aggregatedOutput":"Hello from demo\n","exitCode":0,"durationMs":0}','commandExecution',34,1796270029531,1796270029531);
INSERT INTO "thread_items" VALUES('01a23a09-771b-7211-b366-5b4d0b149589','01a23a09-7798-7ff2-b3e3-ce04f6cb128f','rs_resp_sdb_4',38,1796270029654,'{"type":"reasoning","id":"rs_resp_sdb_4","summary":["Summarise the results."],"content":[]}','reasoning',38,1796270029654,1796270029654);
INSERT INTO "thread_items" VALUES('01a23a09-771b-7211-b366-5b4d0b149589','01a23a09-7798-7ff2-b3e3-ce04f6cb128f','msg_resp_sdb_4',40,1796270029669,'{"type":"agentMessage","moderation":null,"id":"msg_resp_sdb_4","text":"`hello.py` prints `Hello from demo`. `missing.txt` does not exist (cat exited 1) and the last command exited with status 3.","phase":null,"memoryCitation":null,"delivery":null,"questions":null}','agentMessage',40,1796270029669,1796270029669);
CREATE TABLE thread_realtime_items (
    thread_id TEXT NOT NULL,
    item_id TEXT NOT NULL,
    rollout_ordinal INTEGER NOT NULL,
    created_at_ms INTEGER NOT NULL,
    item_type TEXT NOT NULL,
    item_json TEXT NOT NULL,
    PRIMARY KEY (thread_id, item_id)
);
CREATE TABLE thread_turns (
    thread_id TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    rollout_ordinal INTEGER NOT NULL,
    status TEXT NOT NULL,
    error_json TEXT,
    started_at INTEGER,
    completed_at INTEGER,
    duration_ms INTEGER,
    first_user_item_id TEXT,
    final_agent_item_id TEXT, rollout_byte_offset INTEGER, rollout_end_ordinal INTEGER, rollout_end_byte_offset INTEGER, root_turn_id TEXT,
    PRIMARY KEY (thread_id, turn_id)
);
INSERT INTO "thread_turns" VALUES('01a23a09-771b-7211-b366-5b4d0b149589','01a23a09-7798-7ff2-b3e3-ce04f6cb128f',1,'completed',NULL,1796270028,1796270029,1011,'01a23a09-781e-7811-b5a7-90918e5076fe','msg_resp_sdb_4',22245,44,59664,'01a23a09-7798-7ff2-b3e3-ce04f6cb128f');
CREATE UNIQUE INDEX idx_thread_turns_page
    ON thread_turns(thread_id, rollout_ordinal);
CREATE UNIQUE INDEX idx_thread_items_page
    ON thread_items(thread_id, rollout_ordinal);
CREATE INDEX idx_thread_items_by_turn_page
    ON thread_items(thread_id, turn_id, rollout_ordinal);
CREATE INDEX idx_thread_items_user_messages
    ON thread_items(thread_id, rollout_ordinal)
    WHERE item_type = 'userMessage';
CREATE INDEX idx_thread_items_updated_page
    ON thread_items(thread_id, updated_at_ordinal);
CREATE INDEX idx_thread_items_by_turn_updated_page
    ON thread_items(thread_id, turn_id, updated_at_ordinal);
CREATE UNIQUE INDEX idx_thread_realtime_items_page
    ON thread_realtime_items(thread_id, rollout_ordinal);
CREATE INDEX idx_thread_realtime_items_boundary
    ON thread_realtime_items(thread_id, rollout_ordinal)
    WHERE item_type IN ('realtime_session_started', 'realtime_session_closed');
CREATE TRIGGER thread_realtime_items_projection_cleanup
    AFTER DELETE ON thread_history_projection_state
BEGIN
    DELETE FROM thread_realtime_items WHERE thread_id = OLD.thread_id;
END;
CREATE INDEX idx_thread_turns_end_page
    ON thread_turns(thread_id, rollout_end_ordinal, turn_id)
    WHERE rollout_end_ordinal IS NOT NULL;
CREATE INDEX idx_thread_realtime_observed
    ON thread_realtime_items(thread_id, json_extract(item_json, '$.observed_at_ms'), rollout_ordinal, item_id)
    WHERE json_extract(item_json, '$.observed_at_ms') IS NOT NULL;
CREATE INDEX idx_thread_realtime_session_observed
    ON thread_realtime_items(thread_id, json_extract(item_json, '$.realtime_session_id'), json_extract(item_json, '$.observed_at_ms'), rollout_ordinal, item_id)
    WHERE json_extract(item_json, '$.observed_at_ms') IS NOT NULL;
CREATE INDEX idx_thread_realtime_session_position
    ON thread_realtime_items(thread_id, json_extract(item_json, '$.realtime_session_id'), rollout_ordinal, item_id)
    WHERE json_extract(item_json, '$.observed_at_ms') IS NOT NULL;
COMMIT;
