-- Media uploads and the video library (module media, spec 03 §3-§5 upload dialog, spec 01 §7 e-commerce
-- videolibrary/* and course/video/info).

-- A tus resumable upload: its bytes go to DATA_DIR/uploads/<id>.part until `received` reaches `length`,
-- then into the file storage as a video. The id is random (it is the upload's URL).
CREATE TABLE media_uploads (
  id           text PRIMARY KEY,
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  created_by   bigint NOT NULL,
  length       bigint NOT NULL CHECK (length > 0),
  received     bigint NOT NULL DEFAULT 0 CHECK (received >= 0 AND received <= length),
  ref_id       text,
  type         integer NOT NULL,
  name         text NOT NULL,
  filename     text NOT NULL,
  zhuanma      boolean NOT NULL DEFAULT false,
  metadata     text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX media_uploads_merchant_idx ON media_uploads (merchant_id, created_at DESC);
CREATE INDEX media_uploads_unfinished_idx ON media_uploads (updated_at) WHERE completed_at IS NULL;

-- A finished upload: a video (or audio) file in the storage, known by its id (the `videoid`).
CREATE TABLE media_videos (
  id           bigserial PRIMARY KEY,
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  upload_id    text NOT NULL UNIQUE REFERENCES media_uploads (id),
  ref_id       text,
  type         integer NOT NULL,
  name         text NOT NULL,
  filename     text NOT NULL,
  bytes        bigint NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('video', 'audio')),
  content_type text NOT NULL,
  zhuanma      boolean NOT NULL DEFAULT false,
  storage_key  text NOT NULL,
  created_by   bigint NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX media_videos_merchant_idx ON media_videos (merchant_id, id DESC);

-- The merchant's video library: videos added by videolibrary/batchadd, each at most once.
CREATE TABLE media_library (
  id          bigserial PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  video_id    bigint NOT NULL REFERENCES media_videos (id),
  type_id     integer NOT NULL,
  name        text NOT NULL,
  size_kb     bigint NOT NULL,
  created_by  bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_id, video_id)
);
CREATE INDEX media_library_merchant_idx ON media_library (merchant_id, id DESC);
CREATE INDEX media_library_type_idx ON media_library (merchant_id, type_id, id DESC);
