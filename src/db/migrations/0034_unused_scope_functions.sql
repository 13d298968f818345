-- aizk:drops functions/aizk_scopes_proven functions/aizk_setting_scopes
-- Two functions nothing calls: aizk_scopes_proven and aizk_setting_scopes, the helpers
-- aizk_read_scopes and aizk_write_scopes called before they verified the proof in one call. No
-- statement of aizk calls them, 0.1.0's included, yet the app role could execute both. Dropping a
-- function takes its grants with it.
DROP FUNCTION IF EXISTS aizk_scopes_proven(uuid[], uuid[]);
DROP FUNCTION IF EXISTS aizk_setting_scopes(text);
