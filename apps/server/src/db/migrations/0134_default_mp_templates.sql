-- Issue 40, item 13: the template library starts with one mall template per platform, so a merchant's first
-- mini-program mall can be uploaded without waiting for an operator ("请联系平台运营"). Operators edit or
-- replace them like any other template (a live third-party platform needs its own template ids: deleting these
-- and adding the platform's is part of going live, docs/deploy.md).
INSERT INTO mp_templates (platform, name, template_type, user_version, description, params, created_at, updated_at)
SELECT p.platform, p.name, 0, '1.0.0', p.description, '[]', now(), now()
FROM (VALUES
  ('wechat', '标准权益商城', '平台默认的微信小程序权益商城模板：首页、商品、礼包、购物车、订单和客服。'),
  ('douyin', '标准权益商城（抖音）', '平台默认的抖音小程序权益商城模板：首页、商品、礼包、购物车、订单和客服。')
) AS p (platform, name, description)
WHERE NOT EXISTS (SELECT 1 FROM mp_templates t WHERE t.platform = p.platform AND t.deleted_at IS NULL);
