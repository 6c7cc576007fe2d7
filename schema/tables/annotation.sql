-- Linguistic annotation, keyed by text_hash so each distinct text is analysed once per run.
create sequence if not exists annotation_run_seq start 1;
create table if not exists annotation_run (
    run_id integer primary key default nextval('annotation_run_seq'),
    annotator varchar not null,           -- spacy, stanza, conllu import, ...
    model varchar,
    version varchar,
    created_at timestamp not null default current_timestamp,
    lang varchar                          -- language of the texts it analysed (e.g. en)
);
alter table annotation_run add column if not exists lang varchar;  -- stores made before it
-- status: ok, empty or failed; a failed or empty analysis makes linguistic scores NULL.
create table if not exists annotated_text (
    run_id integer not null,
    text_hash varchar not null,
    status varchar not null check (status in ('ok', 'empty', 'failed')),
    message varchar,
    primary key (run_id, text_hash)
);
-- drs: an imported discourse representation structure (Boxer's flat DRS as JSON, see
-- ulcdb/metrics/dr/drs.py); NULL where DR metrics build their own from tokens and spans.
alter table annotated_text add column if not exists drs varchar;
-- Tokens: tok is the 0-based index in the text, head the tok index of the head (-1 = root).
create table if not exists ann_token (
    run_id integer not null,
    text_hash varchar not null,
    tok integer not null,
    sent integer not null,
    form varchar not null,
    lemma varchar,
    tag varchar,                          -- fine-grained (PTB) tag
    pos varchar,                          -- coarse (UD) tag
    head integer,
    deprel varchar,
    primary key (run_id, text_hash, tok)
);
-- Spans over tokens [start_tok, end_tok): chunks, entities, constituents, semantic roles,
-- discourse representation conditions.  parent links constituents and roles to predicates.
create table if not exists ann_span (
    run_id integer not null,
    text_hash varchar not null,
    layer varchar not null,
    span_id integer not null,
    start_tok integer not null,
    end_tok integer not null,
    label varchar not null,
    parent integer,
    primary key (run_id, text_hash, layer, span_id)
);
