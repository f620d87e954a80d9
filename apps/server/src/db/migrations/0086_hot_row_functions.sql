-- The two rows every card order of a goods updates (the goods' stock counters and the supplier's income
-- balance) are updated through these functions instead of by UPDATEs inside the order's one statement.
-- Why: when a concurrent order changed the row first, PostgreSQL re-checks the updating statement on the
-- new row version (EvalPlanQual), and PostgreSQL 15 sets up the whole statement's plan again for that,
-- once per waiting order. A function's UPDATE is its own small statement, so the re-check is small. The
-- function runs inside the order's statement and transaction: its writes roll back with everything else.
-- Their ROWS are what they return (one goods, a posting's few accounts), so the order statement's
-- generic plan is costed like its custom plans and PostgreSQL keeps the prepared plan instead of
-- planning every order anew.

-- Sells `sold` codes of a goods still available: moves the counters and sets or clears the low-stock
-- flag (the sale taking stock below the threshold sets it; stock back at or above the threshold clears
-- it). No row when nothing moved (nothing sold, or the goods is no longer available).
CREATE FUNCTION catalog_sell_counters(goods_id bigint, sold_now integer, at timestamptz)
RETURNS TABLE (stock integer, low_stock_threshold integer, sold integer) LANGUAGE plpgsql VOLATILE ROWS 1 AS $$
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

-- Moves ledger balances (every posting's, the order statement's and post()'s): account ids[k] by amounts[k], one account at a time in account-id order (so
-- concurrent postings lock rows in the same order and cannot deadlock, and each UPDATE is a primary-key
-- update whatever the plan cache decides); a balance that may not go negative and would is not moved.
-- Returns each moved account with its balance after and the caller's index ns[k]: a move missing from
-- the result was refused, and the caller must roll back.
CREATE FUNCTION ledger_apply_moves(ids bigint[], amounts bigint[], ns bigint[])
RETURNS TABLE (id bigint, balance bigint, amount bigint, n bigint) LANGUAGE plpgsql VOLATILE ROWS 2 AS $$
DECLARE
  move record;
BEGIN
  FOR move IN SELECT * FROM unnest(ids, amounts, ns) AS u(account_id, delta, k) ORDER BY u.account_id LOOP
    UPDATE ledger_accounts a SET balance = a.balance + move.delta
    WHERE a.id = move.account_id AND (a.allow_negative OR a.balance + move.delta >= 0)
    RETURNING a.id, a.balance INTO id, balance;
    IF FOUND THEN
      amount := move.delta;
      n := move.k;
      RETURN NEXT;
    END IF;
  END LOOP;
END $$;
