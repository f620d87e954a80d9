/** Messages of the media upload dialog and the video library (spec 03 §4, §5), in the three languages. */
export const MEDIA_MESSAGES = {
  "media.chooseFile": { cn: "请先选择文件", tw: "請先選擇文件", en: "Please choose a file first" },
  "media.videoOnly": { cn: "只支持视频格式", tw: "只支持視頻格式", en: "Only video formats are supported" },
  "media.audioOnly": { cn: "只支持音频格式", tw: "只支持音頻格式", en: "Only audio formats are supported" },
  "media.tooSmall": { cn: "视频大小至少1KB", tw: "視頻大小至少1KB", en: "Video size at least 1KB" },
  "media.tooLarge": { cn: "视频大小不能超过2GB", tw: "視頻大小不能超過2GB", en: "Video size cannot exceed 2GB" },
  "media.uploadFailed": { cn: "文件上传失败", tw: "文件上傳失敗", en: "File upload failed" },
  "media.uploadPaused": { cn: "上传已暂停", tw: "上傳已暫停", en: "Upload paused" },
  "media.leaveUnfinished": {
    cn: "还未上传完成，确定离开吗？",
    tw: "還未上傳完成，確定離開嗎？",
    en: "Not finished uploading, leave?",
  },
  "media.uploadSucceeded": { cn: "上传成功", tw: "上傳成功", en: "Upload succeeded" },
  "media.tusVersion": {
    cn: "不支持的上传协议版本",
    tw: "不支持的上傳協議版本",
    en: "Unsupported upload protocol version",
  },
  "media.lengthInvalid": { cn: "上传长度无效", tw: "上傳長度無效", en: "The upload length is not valid" },
  "media.metadataInvalid": {
    cn: "上传信息不完整或格式错误",
    tw: "上傳信息不完整或格式錯誤",
    en: "The upload's details are incomplete or malformed",
  },
  "media.typeInvalid": { cn: "上传类型无效", tw: "上傳類型無效", en: "The upload type is not valid" },
  "media.sizeMismatch": {
    cn: "视频大小与文件不一致",
    tw: "視頻大小與文件不一致",
    en: "The video size does not match the file",
  },
  "media.contentType": {
    cn: "续传内容类型必须为 application/offset+octet-stream",
    tw: "續傳內容類型必須為 application/offset+octet-stream",
    en: "Upload parts must be sent as application/offset+octet-stream",
  },
  "media.offsetMismatch": {
    cn: "上传位置不一致，请从服务器记录的位置继续",
    tw: "上傳位置不一致，請從服務器記錄的位置繼續",
    en: "The upload offset does not match; continue from the server's offset",
  },
  "media.busy": { cn: "该文件正在上传中", tw: "該文件正在上傳中", en: "This file is being uploaded already" },
  "media.exceedsLength": {
    cn: "上传内容超过声明的文件大小",
    tw: "上傳內容超過聲明的文件大小",
    en: "More bytes were sent than the upload's length",
  },
  "media.uploadNotFound": {
    cn: "上传不存在或已结束",
    tw: "上傳不存在或已結束",
    en: "This upload does not exist or has ended",
  },
  "media.uploadInUse": {
    cn: "该文件已保存为视频，不能取消",
    tw: "該文件已保存為視頻，不能取消",
    en: "This upload is already a saved video and cannot be cancelled",
  },
  "media.videoNotFound": { cn: "视频不存在", tw: "視頻不存在", en: "This video does not exist" },
  "media.listEmpty": { cn: "请选择要添加的视频", tw: "請選擇要添加的視頻", en: "Please choose the videos to add" },
  "media.listTooLong": {
    cn: "一次最多添加100个视频",
    tw: "一次最多添加100個視頻",
    en: "At most 100 videos can be added at once",
  },
  "media.nameLength": {
    cn: "视频名称为1-100个字符",
    tw: "視頻名稱為1-100個字符",
    en: "The video name is 1-100 characters",
  },
  "media.linkExpired": {
    cn: "播放链接已过期，请刷新页面",
    tw: "播放鏈接已過期，請刷新頁面",
    en: "The playback link has expired; reload the page",
  },
  "media.rangeInvalid": { cn: "请求的范围无效", tw: "請求的範圍無效", en: "The requested range is not valid" },
} as const;
