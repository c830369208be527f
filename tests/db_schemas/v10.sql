-- cardbase schema version 10 (written by tests/db_schemas/regenerate.py)

CREATE TABLE game (
	id VARCHAR(20) NOT NULL,
	title VARCHAR NOT NULL,
	rulebook VARCHAR NOT NULL,
	PRIMARY KEY (id)
);

CREATE TABLE meta (
	key VARCHAR(200) NOT NULL,
	value VARCHAR NOT NULL,
	PRIMARY KEY (key)
);

CREATE TABLE card (
	id VARCHAR(300) NOT NULL,
	short_id BIGINT NOT NULL,
	game VARCHAR(20) NOT NULL,
	set_code VARCHAR(60) NOT NULL,
	name VARCHAR NOT NULL,
	search_names VARCHAR NOT NULL,
	type VARCHAR(40) NOT NULL,
	source VARCHAR NOT NULL,
	text VARCHAR,
	description VARCHAR,
	land_name VARCHAR,
	cost INTEGER,
	attack INTEGER,
	defence INTEGER,
	level INTEGER,
	points INTEGER,
	developed_points INTEGER,
	bravery INTEGER,
	wits INTEGER,
	rank INTEGER,
	suit VARCHAR(1),
	min_players INTEGER,
	copies INTEGER,
	notes VARCHAR,
	unknown VARCHAR NOT NULL,
	abilities VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(game) REFERENCES game (id)
);

CREATE INDEX ix_card_attack ON card (attack);

CREATE INDEX ix_card_cost ON card (cost);

CREATE INDEX ix_card_defence ON card (defence);

CREATE INDEX ix_card_game ON card (game);

CREATE INDEX ix_card_game_name ON card (game, name);

CREATE INDEX ix_card_level ON card (level);

CREATE INDEX ix_card_name ON card (name);

CREATE INDEX ix_card_set_code ON card (set_code);

CREATE UNIQUE INDEX ix_card_short_id ON card (short_id);

CREATE INDEX ix_card_source ON card (source);

CREATE INDEX ix_card_type ON card (type);

CREATE TABLE card_set (
	game VARCHAR(20) NOT NULL,
	code VARCHAR(60) NOT NULL,
	name VARCHAR,
	source VARCHAR NOT NULL,
	note VARCHAR,
	PRIMARY KEY (game, code),
	FOREIGN KEY(game) REFERENCES game (id)
);

CREATE TABLE card_type (
	game VARCHAR(20) NOT NULL,
	name VARCHAR(40) NOT NULL,
	rulebook_count INTEGER,
	PRIMARY KEY (game, name),
	FOREIGN KEY(game) REFERENCES game (id)
);

CREATE TABLE deck (
	id SERIAL NOT NULL,
	name VARCHAR(200) NOT NULL,
	game VARCHAR(20) NOT NULL,
	format VARCHAR,
	players INTEGER,
	updated_at VARCHAR NOT NULL,
	version INTEGER DEFAULT 1 NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(game) REFERENCES game (id)
);

CREATE UNIQUE INDEX ix_deck_name ON deck (name);

CREATE TABLE play_game (
	id VARCHAR(40) NOT NULL,
	game VARCHAR(20) NOT NULL,
	rules VARCHAR NOT NULL,
	seed VARCHAR(20) NOT NULL,
	status VARCHAR(20) NOT NULL,
	version INTEGER NOT NULL,
	labels VARCHAR NOT NULL,
	outcome VARCHAR,
	created_at VARCHAR(40) NOT NULL,
	updated_at VARCHAR(40) NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(game) REFERENCES game (id)
);

CREATE INDEX ix_play_game_status ON play_game (status);

CREATE TABLE card_alias (
	card_id VARCHAR(300) NOT NULL,
	alias VARCHAR NOT NULL,
	PRIMARY KEY (card_id, alias),
	FOREIGN KEY(card_id) REFERENCES card (id)
);

CREATE TABLE card_edit (
	id SERIAL NOT NULL,
	card_id VARCHAR(300) NOT NULL,
	at VARCHAR(40) NOT NULL,
	who VARCHAR(200) NOT NULL,
	action VARCHAR(20) NOT NULL,
	before VARCHAR NOT NULL,
	after VARCHAR NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(card_id) REFERENCES card (id)
);

CREATE INDEX ix_card_edit_card_id ON card_edit (card_id);

CREATE TABLE card_image (
	card_id VARCHAR(300) NOT NULL,
	path VARCHAR NOT NULL,
	sha256 VARCHAR(64) NOT NULL,
	PRIMARY KEY (card_id),
	FOREIGN KEY(card_id) REFERENCES card (id)
);

CREATE TABLE card_tag (
	card_id VARCHAR(300) NOT NULL,
	tag VARCHAR(40) NOT NULL,
	PRIMARY KEY (card_id, tag),
	FOREIGN KEY(card_id) REFERENCES card (id)
);

CREATE INDEX ix_card_tag_tag ON card_tag (tag);

CREATE TABLE collection (
	card_id VARCHAR(300) NOT NULL,
	count INTEGER NOT NULL,
	PRIMARY KEY (card_id),
	FOREIGN KEY(card_id) REFERENCES card (id)
);

CREATE TABLE deck_card (
	deck_id INTEGER NOT NULL,
	card_id VARCHAR(300) NOT NULL,
	section VARCHAR(40) NOT NULL,
	count INTEGER NOT NULL,
	position INTEGER NOT NULL,
	PRIMARY KEY (deck_id, card_id, section),
	FOREIGN KEY(deck_id) REFERENCES deck (id),
	FOREIGN KEY(card_id) REFERENCES card (id)
);

CREATE TABLE deck_card_tag (
	deck_id INTEGER NOT NULL,
	card_id VARCHAR(300) NOT NULL,
	tag VARCHAR(40) NOT NULL,
	PRIMARY KEY (deck_id, card_id, tag),
	FOREIGN KEY(deck_id) REFERENCES deck (id),
	FOREIGN KEY(card_id) REFERENCES card (id)
);

CREATE TABLE deck_version (
	deck_id INTEGER NOT NULL,
	number INTEGER NOT NULL,
	at VARCHAR(40) NOT NULL,
	origin VARCHAR(40) NOT NULL,
	change VARCHAR NOT NULL,
	content VARCHAR NOT NULL,
	PRIMARY KEY (deck_id, number),
	FOREIGN KEY(deck_id) REFERENCES deck (id)
);

CREATE TABLE play_action (
	game_id VARCHAR(40) NOT NULL,
	number INTEGER NOT NULL,
	player VARCHAR(10) NOT NULL,
	action VARCHAR NOT NULL,
	PRIMARY KEY (game_id, number),
	FOREIGN KEY(game_id) REFERENCES play_game (id)
);

CREATE TABLE play_seat (
	game_id VARCHAR(40) NOT NULL,
	seat INTEGER NOT NULL,
	agent VARCHAR(200) NOT NULL,
	key_hash VARCHAR(64),
	PRIMARY KEY (game_id, seat),
	FOREIGN KEY(game_id) REFERENCES play_game (id)
);

-- the search index on sqlite:
-- CREATE VIRTUAL TABLE card_search USING fts5(search_names, text, description, land_name, notes, tokenize = 'trigram', detail = full, columnsize = 0);
-- CREATE TRIGGER card_search_insert AFTER INSERT ON card BEGIN INSERT INTO card_search (rowid, search_names, text, description, land_name, notes) VALUES (new.short_id, new.search_names, char(2) || coalesce(new.text, ''), new.description, new.land_name, new.notes); END;
-- CREATE TRIGGER card_search_delete AFTER DELETE ON card BEGIN DELETE FROM card_search WHERE rowid = old.short_id; END;
-- CREATE TRIGGER card_search_update AFTER UPDATE OF short_id, search_names, text, description, land_name, notes ON card BEGIN DELETE FROM card_search WHERE rowid = old.short_id; INSERT INTO card_search (rowid, search_names, text, description, land_name, notes) VALUES (new.short_id, new.search_names, char(2) || coalesce(new.text, ''), new.description, new.land_name, new.notes); END;
-- INSERT INTO card_search (rowid, search_names, text, description, land_name, notes) SELECT short_id, search_names, char(2) || coalesce(text, ''), description, land_name, notes FROM card;
-- the search index on postgresql:
-- CREATE EXTENSION IF NOT EXISTS pg_trgm;
-- CREATE INDEX ix_card_trgm_name ON card USING gin (name gin_trgm_ops);
-- CREATE INDEX ix_card_trgm_search_names ON card USING gin (search_names gin_trgm_ops);
-- CREATE INDEX ix_card_trgm_text ON card USING gin (text gin_trgm_ops);
-- CREATE INDEX ix_card_trgm_description ON card USING gin (description gin_trgm_ops);
-- CREATE INDEX ix_card_trgm_land_name ON card USING gin (land_name gin_trgm_ops);
-- CREATE INDEX ix_card_trgm_notes ON card USING gin (notes gin_trgm_ops);
-- and on sqlite the name orders with the text (schema 9):
-- CREATE INDEX IF NOT EXISTS ix_card_game_name_text ON card (game, name, set_code, text);
-- CREATE INDEX IF NOT EXISTS ix_card_name_text ON card (name, game, set_code, text);
-- and on postgresql the text in lower case (schema 10):
-- ALTER TABLE card ADD COLUMN IF NOT EXISTS text_folded VARCHAR GENERATED ALWAYS AS (lower(text)) STORED;
