-- The two rows every card order of a goods updates (the goods' stock counters and the supplier's income
-- balance) are updated through these functions instead of by UPDATEs inside the order's one statement.
-- Why: when a concurrent order changed the row first, PostgreSQL re-checks the updating statement on the
-- new row version (EvalPlanQual), and PostgreSQL 15 sets up the whole statement's plan again for that,
-- once per waiting order. A function's UPDATE is its own small statement, so the re-check is small. The
-- function runs inside the order's statement and transaction: its writes roll back with everything else.

-- Sells `sold` codes of a goods still available: moves the counters and sets or clears the low-stock
-- flag (the sale taking stock below the threshold sets it; stock back at or above the threshold clears
-- it). No row when nothing moved (nothing sold, or the goods is no longer available).
CREATE FUNCTION catalog_sell_counters(goods_id bigint, sold_now integer, at timestamptz)
RETURNS TABLE (stock integer, low_stock_threshold integer, sold integer) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  IF sold_now IS NULL OR sold_now <= 0 THEN
    RETURN;
  END IF;
  RETURN QUERY
    UPDATE catalog_goods g SET stock = g.stock - sold_now, sold = g.sold + sold_now,
      low_stock_notified_at = CASE
        WHEN g.low_stock_threshold > 0 AND g.stock - sold_now < g.low_stock_threshold THEN coalesce(g.low_stock_notified_at, at)
        WHEN g.stock - sold_now >= g.low_stock_threshold THEN NULL
        ELSE g.low_stock_notified_at END
    WHERE g.id = goods_id AND g.state = 'available'
    RETURNING g.stock, g.low_stock_threshold, sold_now;
END $$;

-- Moves ledger balances: account ids[k] by amounts[k], locked in account-id order (so concurrent
-- postings cannot deadlock); a balance that may not go negative and would is not moved. Returns each
-- moved account with its balance after and the caller's index ns[k]: a move missing from the result was
-- refused, and the caller must roll back.
CREATE FUNCTION ledger_apply_moves(ids bigint[], amounts bigint[], ns bigint[])
RETURNS TABLE (id bigint, balance bigint, amount bigint, n bigint) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    UPDATE ledger_accounts a SET balance = a.balance + m.amount
    FROM (SELECT * FROM unnest(ids, amounts, ns) AS u(id, amount, n) ORDER BY u.id) m
    WHERE a.id = m.id AND (a.allow_negative OR a.balance + m.amount >= 0)
    RETURNING a.id, a.balance, m.amount, m.n;
END $$;
