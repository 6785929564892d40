BEGIN TRANSACTION;
CREATE TABLE _sqlx_migrations (
    version BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    success BOOLEAN NOT NULL,
    checksum BLOB NOT NULL,
    execution_time BIGINT NOT NULL
);
INSERT INTO "_sqlx_migrations" VALUES(1,'thread history','2026-12-03 03:56:02',1,X'2AD9A4AB17DF511FB73F03337133DE94A172DC0A1F5729B5EF61FE106DB03D1A43BDB5978B0CB7D7BC74071D3CA34A92',947404);
INSERT INTO "_sqlx_migrations" VALUES(2,'thread items item type','2026-12-03 03:56:02',1,X'AE61DBC1A6422530AA93914DBCAC363A0238B86AE1A9D77EB041C75330E1283A0FCF93A043DEEEFCD6FD2C4037694BC4',667794);
INSERT INTO "_sqlx_migrations" VALUES(3,'turn rollout positions','2026-12-03 03:56:02',1,X'A51DA2A11DF7760D8F8CAB221E82B36CE8C0A30F16D44F3602E7F0FBC622CA72F1C3E3ECF22A194E12C2222BDCB51AFE',701020);
INSERT INTO "_sqlx_migrations" VALUES(4,'thread items updated at ordinal','2026-12-03 03:56:02',1,X'65F33B171BD3AAFE9D24728B2CA6A5C720A3AB54AED472998F8ACF7489F0D35B2DFD12258A2D17BE993BF17098B5E50C',655271);
INSERT INTO "_sqlx_migrations" VALUES(5,'thread realtime items','2026-12-03 03:56:02',1,X'2FDAD8E361DC1F828AFACF10BD2EB1F511B02DEEF7FA234A9C412D0211DE126D1CFAD54B175C9C3A9731548F9084B437',697962);
INSERT INTO "_sqlx_migrations" VALUES(6,'thread turn ends','2026-12-03 03:56:02',1,X'02ED82D375ADB58B5C0C09E0154F3331D507CEA7AF446D12324E5653CDBA9A91F84AFD38CF2A29F33030614689DEB9DE',222413);
CREATE TABLE thread_history_projection_state (
    thread_id TEXT PRIMARY KEY,
    next_rollout_byte_offset INTEGER NOT NULL,
    next_rollout_ordinal INTEGER NOT NULL
);
INSERT INTO "thread_history_projection_state" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3',64352,59);
CREATE TABLE thread_items (
    thread_id TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    item_id TEXT NOT NULL,
    rollout_ordinal INTEGER NOT NULL,
    created_at_ms INTEGER NOT NULL,
    item_json TEXT NOT NULL, item_type TEXT NOT NULL DEFAULT '', updated_at_ordinal INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (thread_id, turn_id, item_id)
);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-83fe-7751-b3cb-5a6761dd1b5e','01a23a0b-845c-75e2-8538-10941a6dbf79',7,1796270163036,'{"type":"userMessage","id":"01a23a0b-845c-75e2-8538-10941a6dbf79","clientId":null,"content":[{"type":"text","text":"Look around the repo, run hello.py and tell me.","text_elements":[]}]}','userMessage',7);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-83fe-7751-b3cb-5a6761dd1b5e','rs_resp_sdb_1',8,1796270163096,'{"type":"reasoning","id":"rs_resp_sdb_1","summary":["I should look at the files first."],"content":[]}','reasoning',8);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-83fe-7751-b3cb-5a6761dd1b5e','msg_resp_sdb_1',10,1796270163108,'{"type":"agentMessage","id":"msg_resp_sdb_1","text":"I''ll list the files and read the README.","phase":null,"memoryCitation":null,"delivery":null,"questions":null}','agentMessage',10);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-83fe-7751-b3cb-5a6761dd1b5e','call_ls',15,1796270163187,'{"type":"commandExecution","id":"call_ls","pluginId":null,"scriptPath":null,"command":"/bin/bash -lc ''ls -la''","cwd":"/workspace/demo","processId":"30160","source":"unifiedExecStartup","status":"completed","commandActions":[{"type":"listFiles","command":"ls -la","path":null}],"aggregatedOutput":"total 16\ndrwxr-xr-x 2 root root 4096 Dec  3 03:56 .\ndrwxr-xr-x 3 root root 4096 Dec  3 03:56 ..\n-rw-r--r-- 1 root root   28 Dec  3 03:56 README.md\n-rw-r--r-- 1 root root   48 Dec  3 03:56 hello.py\n","exitCode":0,"durationMs":0}','commandExecution',15);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-83fe-7751-b3cb-5a6761dd1b5e','call_cat',16,1796270163190,'{"type":"commandExecution","id":"call_cat","pluginId":null,"scriptPath":null,"command":"/bin/bash -lc ''cat README.md''","cwd":"/workspace/demo","processId":"69356","source":"unifiedExecStartup","status":"completed","commandActions":[{"type":"read","command":"cat README.md","name":"README.md","path":"/workspace/demo/README.md"}],"aggregatedOutput":"# demo\nA tiny demo project.\n","exitCode":0,"durationMs":0}','commandExecution',16);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-83fe-7751-b3cb-5a6761dd1b5e','rs_resp_sdb_2',20,1796270163256,'{"type":"reasoning","id":"rs_resp_sdb_2","summary":["Check for the notes file the user mentioned."],"content":[]}','reasoning',20);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-83fe-7751-b3cb-5a6761dd1b5e','call_missing',24,1796270163299,'{"type":"commandExecution","id":"call_missing","pluginId":null,"scriptPath":null,"command":"/bin/bash -lc ''cat missing.txt''","cwd":"/workspace/demo","processId":"68638","source":"unifiedExecStartup","status":"failed","commandActions":[{"type":"read","command":"cat missing.txt","name":"missing.txt","path":"/workspace/demo/missing.txt"}],"aggregatedOutput":"cat: missing.txt: No such file or directory\n","exitCode":1,"durationMs":0}','commandExecution',24);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-83fe-7751-b3cb-5a6761dd1b5e','rs_resp_sdb_3',27,1796270163383,'{"type":"reasoning","id":"rs_resp_sdb_3","summary":["Run the program, then a command that fails on purpose."],"content":[]}','reasoning',27);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-83fe-7751-b3cb-5a6761dd1b5e','call_fail',32,1796270163443,'{"type":"commandExecution","id":"call_fail","pluginId":null,"scriptPath":null,"command":"/bin/bash -lc ''exit 3''","cwd":"/workspace/demo","processId":"49573","source":"unifiedExecStartup","status":"failed","commandActions":[{"type":"unknown","command":"exit 3"}],"aggregatedOutput":null,"exitCode":3,"durationMs":0}','commandExecution',32);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-83fe-7751-b3cb-5a6761dd1b5e','call_run',33,1796270163483,'{"type":"commandExecution","id":"call_run","pluginId":null,"scriptPath":null,"command":"/bin/bash -lc ''python3 hello.py''","cwd":"/workspace/demo","processId":"50333","source":"unifiedExecStartup","status":"completed","commandActions":[{"type":"unknown","command":"python3 hello.py"}],"aggregatedOutput":"Hello from demo\n","exitCode":0,"durationMs":0}','commandExecution',33);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-83fe-7751-b3cb-5a6761dd1b5e','rs_resp_sdb_4',37,1796270163565,'{"type":"reasoning","id":"rs_resp_sdb_4","summary":["Summarise the results."],"content":[]}','reasoning',37);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-83fe-7751-b3cb-5a6761dd1b5e','msg_resp_sdb_4',39,1796270163570,'{"type":"agentMessage","id":"msg_resp_sdb_4","text":"`hello.py` prints `Hello from demo`. `missing.txt` does not exist (cat exited 1) and the last command exited with status 3.","phase":null,"memoryCitation":null,"delivery":null,"questions":null}','agentMessage',39);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-87d7-77a0-a359-4992f94717d2','01a23a0b-8816-7f00-a083-36e395f46668',48,1796270163990,'{"type":"userMessage","id":"01a23a0b-8816-7f00-a083-36e395f46668","clientId":null,"content":[{"type":"text","text":"How many lines does each file have?","text_elements":[]}]}','userMessage',48);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-87d7-77a0-a359-4992f94717d2','call_r2',51,1796270164119,'{"type":"commandExecution","id":"call_r2","pluginId":null,"scriptPath":null,"command":"/bin/bash -lc ''wc -l hello.py README.md''","cwd":"/workspace/demo","processId":"49299","source":"unifiedExecStartup","status":"completed","commandActions":[{"type":"unknown","command":"wc -l hello.py README.md"}],"aggregatedOutput":" 2 hello.py\n 2 README.md\n 4 total\n","exitCode":0,"durationMs":0}','commandExecution',51);
INSERT INTO "thread_items" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-87d7-77a0-a359-4992f94717d2','msg_resp_sdb_6',54,1796270164184,'{"type":"agentMessage","id":"msg_resp_sdb_6","text":"hello.py has 2 lines and README.md has 2 lines.","phase":null,"memoryCitation":null,"delivery":null,"questions":null}','agentMessage',54);
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
    final_agent_item_id TEXT, rollout_byte_offset INTEGER, rollout_end_ordinal INTEGER, rollout_end_byte_offset INTEGER,
    PRIMARY KEY (thread_id, turn_id)
);
INSERT INTO "thread_turns" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-83fe-7751-b3cb-5a6761dd1b5e',1,'completed',NULL,1796270162,1796270163,635,'01a23a0b-845c-75e2-8538-10941a6dbf79','msg_resp_sdb_4',22058,43,56314);
INSERT INTO "thread_turns" VALUES('01a23a0b-83dc-7d83-9706-fcb3029dc2d3','01a23a0b-87d7-77a0-a359-4992f94717d2',45,'completed',NULL,1796270163,1796270164,258,'01a23a0b-8816-7f00-a083-36e395f46668','msg_resp_sdb_6',56818,58,64352);
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
COMMIT;
