-- A two-character beginning typed into search ("as you type") reads one list of the index
-- instead of merging the lists of every word it begins (issue 54's search budget): the
-- full-text index gets a prefix index of two characters, and is rebuilt from search_docs.
DROP TABLE `search_fts`;--> statement-breakpoint
CREATE VIRTUAL TABLE `search_fts` USING fts5(`text`, content = 'search_docs', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2', prefix = '2');--> statement-breakpoint
INSERT INTO `search_fts` (`search_fts`) VALUES ('rebuild');
