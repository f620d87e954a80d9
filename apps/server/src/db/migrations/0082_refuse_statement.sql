-- A statement that does several things at once (an order: its row, its codes, its ledger movement, its
-- stock counters) refuses from inside itself when one of them cannot be done (short stock, short
-- balance), so everything it wrote rolls back with it and it needs no transaction of its own around it.
-- The error's SQLSTATE is TS409 and its message the reason's message key; NULL refuses nothing.
CREATE FUNCTION refuse_if(reason text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF reason IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'TS409', MESSAGE = reason;
  END IF;
  RETURN true;
END $$;
