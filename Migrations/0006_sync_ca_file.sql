-- The CA bundle (a PEM file) that `todo sync setup --ca-file FILE` named, to trust a server
-- whose certificate the system's store does not (a self-signed one at home); NULL for the
-- system's. Only the path is stored, as given (absolute), never the certificates.
ALTER TABLE sync_remote ADD COLUMN ca_file TEXT;
