-- A beginning of two or three characters typed into search ("as you type": `th`, `the`) reads
-- one list of the index instead of merging the lists of every word it begins, which for a
-- common beginning was most of a search (issue 54's search budget): the full-text index gets
-- prefix indexes of two and three characters, and is rebuilt from search_docs.
DROP TABLE `search_fts`;--> statement-breakpoint
CREATE VIRTUAL TABLE `search_fts` USING fts5(`text`, content = 'search_docs', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');--> statement-breakpoint
INSERT INTO `search_fts` (`search_fts`) VALUES ('rebuild');
