import { describe, expect, it } from "vitest";
import { MESSAGES } from "@tessera/contracts";
import { localeFiles, translationsFor } from "./allTranslations";

/**
 * The locales cannot drift: zh-TW and en have every key of zh-CN (and no others), zh-TW is written in
 * traditional characters, and every key the code uses exists.
 */
function flatten(node: unknown, prefix = "", out = new Map<string, string>()): Map<string, string> {
  if (typeof node === "string") {
    out.set(prefix, node);
    return out;
  }
  if (typeof node === "object" && node !== null) {
    for (const [k, v] of Object.entries(node)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  }
  return out;
}

const cn = flatten(translationsFor("cn"));
const tw = flatten(translationsFor("tw"));
const english = flatten(translationsFor("en"));

/** Characters that exist only in simplified Chinese (their traditional forms differ). */
const SIMPLIFIED_ONLY = [
  ..."这们个时说为后发会对进开关号码页录册员设账户务资费态验证实认语简体来国际区币种网请输邮电话机条选择额余转换显绑变导载协议权记统织组称业应该现间与产价钱单订类项结汇经营执书签约从将无过还让给历闭启删传获审报询诉虑压划卖买办补见观规货质运纳联钮么处级线图标范围复杂详细据库储误异动态态样题头视频帐众专丢两严丧丰临为举义乐习乡书买乱争亏云亚亿仅从仓仪们价众优会伞伟传伤伦伪体佣侠侣侥侦侧侨侬俣俦俨俩俪俭债倾偻偿傥傧储傩儿兑兖党兰关兴兹养兽冁内冈册写军农冯冲决况冻净凄凉减凑凛凤凫凭凯击凿刍划刘则刚创删别刬刭刹刽刿剀剂剐剑剥剧劝办务劢动励劲劳势勋勚匀匦匮区医华协单卖卢卤卫却厅历厉压厌厍厕厢厣厦厨厩厮县叁参叆叇双发变叙叠叶号叹叽吓吕吗吣吨听启吴呐呒呓呕呖呗员呙呛呜咏咙咛咝咤咴咸响哑哒哓哔哕哗哙哜哝哟唛唝唠唡唢唤啧啬啭啮啰啸喷喽喾嗫嗳嘘嘤嘱噜嚣团园囱围囵国图圆圣圹场坏块坚坛坜坝坞坟坠垄垅垆垒垦垩垫垭垲埘埙埚堑堕墙壮声壳壶处备复够头夸夹夺奁奂奋奖奥妆妇妈妩妪妫姗娄娅娆娇娈娱娲娴婳婴婵婶媪嫒嫔嫱嬷孙学孪宁宝实宠审宪宫宽宾寝对寻导寿将尔尘尝尧尴尸尽层屃屉届属屡屦屿岁岂岖岗岘岚岛岭岳岽岿峃峄峡峣峤峥峦崂崃崄崭嵘嵚嵝巅巩巯币帅师帏帐帘帜带帧帮帱帻帼幂庄庆庐庑库应庙庞废廪开异弃弑张弥弪弯弹强归录彦彻径徕忆忏忧忾怀态怂怃怄怅怆怜总怼怿恋恒恳恶恸恹恺恻恼恽悦悫悬悭悯惊惧惨惩惫惬惭惮惯愠愤愦慑懒懑懔戆戋戏戗战戬户扑执扩扪扫扬扰抚抛抟抠抡抢护报担拟拢拣拥拦拧拨择挂挚挛挜挝挞挟挠挡挢挣挤挥挦捞损捡换捣据掳掴掷掸掺掼揽揿搀搁搂搅携摄摅摆摇摈摊撄撑撵撷撸撺擞攒敌敛数斋斓斩断无旧时旷旸昙昼显晋晒晓晔晕晖暂暧术机杀杂权条来杨杩杰极构枞枢枣枥枧枨枪枫枭柜柠柽栀栅标栈栉栊栋栌栎栏树栖样栾桊桠桡桢档桤桥桦桧桨桩梦梼梾检棂椁椟椠椤椭楼榄榇榈榉槚槛槟槠横樯樱橥橱橹橼檩欢欤欧歼殁殇残殒殓殚殡殴毁毂毕毙毡毵氇气氢氩氲汇汉汤汹沟没沣沤沥沦沧沨沩沪泞泪泶泷泸泺泻泼泽泾洁洒洼浃浅浆浇浈浊测浍济浏浐浑浒浓浔涛涝涞涟涠涡涣涤润涧涨涩渊渌渍渎渐渑渔渖渗温湾湿溃溅溆滗滚滞滟滠满滢滤滥滦滨滩滪漤潆潇潋潍潜潴澜濑濒灏灭灯灵灾灿炀炉炖炜炝点炼炽烁烂烃烛烟烦烧烨烩烫烬热焕焖焘煴爱爷牍牦牵牺犊状犷犸犹狈狝狞独狭狮狯狰狱狲猃猎猕猡猪猫猬献獭玑玚玛玮环现玱玺珐珑珰珲琏琐琼瑶瑷璎瓒瓯电画畅畴疖疗疟疠疡疬疭疮疯疱疴痈痉痒痖痨痪痫瘅瘆瘗瘘瘪瘫瘾瘿癞癣癫皑皱皲盏盐监盖盗盘眍眦睁睐睑瞒瞩矫矶矾矿砀码砖砗砚砜砺砻砾础硁硕硖硗硙硚确硷碍碛碜碱礼祃祎祢祯祷祸禀禄禅离秃秆种积称秽秾稆税稣稳穑穷窃窍窎窑窜窝窥窦窭竖竞笃笋笔笕笺笼笾筑筚筛筜筝筹签简箓箦箧箨箩箪箫篑篓篮篱簖籁籴类籼粜粝粤粪粮糁糇紧絷纟纠纡红纣纤纥约级纨纩纪纫纬纭纮纯纰纱纲纳纴纵纶纷纸纹纺纻纼纽纾线绀绁绂练组绅细织终绉绊绋绌绍绎经绐绑绒结绔绕绖绗绘给绚绛络绝绞统绠绡绢绣绤绥绦继绨绩绪绫绬续绮绯绰绱绲绳维绵绶绷绸绹绺绻综绽绾绿缀缁缂缃缄缅缆缇缈缉缊缋缌缍缎缏缐缑缒缓缔缕编缗缘缙缚缛缜缝缞缟缠缡缢缣缤缥缦缧缨缩缪缫缬缭缮缯缰缱缲缳缴缵罂网罗罚罢罴羁羟翘耢耧耸耻聂聋职聍联聩聪肃肠肤肷肾肿胀胁胆胜胧胨胪胫胶脉脍脏脐脑脓脔脚脱脶脸腊腌腘腭腻腼腽腾膑臜舆舣舰舱舻艰艳艺节芈芗芜芦苁苇苈苋苌苍苎苏苘茎茏茑茔茕茧荆荐荙荚荛荜荞荟荠荡荣荤荥荦荧荨荩荪荫荬荭荮药莅莱莲莳莴莶获莸莹莺莼萚萝萤营萦萧萨葱蒇蒉蒋蒌蓝蓟蓠蓣蓥蓦蔷蔹蔺蔼蕲蕴薮藓虏虑虚虫虬虮虽虾虿蚀蚁蚂蚕蚝蚬蛊蛎蛏蛮蛰蛱蛲蛳蛴蜕蜗蜡蝇蝈蝉蝎蝼蝾螀螨蟏衅衔补衬衮袄袅袆袜袭袯装裆裈裢裣裤裥褛褴襁襕见观觃规觅视觇览觉觊觋觌觍觎觏觐觑觞触觯詟誉誊讠计订讣认讥讦讧讨让讪讫讬训议讯记讱讲讳讴讵讶讷许讹论讻讼讽设访诀证诂诃评诅识诇诈诉诊诋诌词诎诏诐译诒诓诔试诖诗诘诙诚诛诜话诞诟诠诡询诣诤该详诧诨诩诪诫诬语诮误诰诱诲诳说诵诶请诸诹诺读诼诽课诿谀谁谂调谄谅谆谇谈谊谋谌谍谎谏谐谑谒谓谔谕谖谗谘谙谚谛谜谝谞谟谠谡谢谣谤谥谦谧谨谩谪谫谬谭谮谯谰谱谲谳谴谵谶谷豮贝贞负贠贡财责贤败账货质贩贪贫贬购贮贯贰贱贲贳贴贵贶贷贸费贺贻贼贽贾贿赀赁赂赃资赅赆赇赈赉赊赋赌赍赎赏赐赑赒赓赔赕赖赗赘赙赚赛赜赝赞赟赠赡赢赣赪赵赶趋趱趸跃跄跖跞践跶跷跸跹跻踊踌踪踬踯蹑蹒蹰蹿躏躜躯车轧轨轩轪轫转轭轮软轰轱轲轳轴轵轶轷轸轹轺轻轼载轾轿辀辁辂较辄辅辆辇辈辉辊辋辌辍辎辏辐辑辒输辔辕辖辗辘辙辚辞辩辫边辽达迁过迈运还这进远违连迟迩迳迹适选逊递逦逻遗遥邓邝邬邮邹邺邻郁郄郏郐郑郓郦郧郸酝酦酱酽酾酿释里鉴銮錾钅钆钇针钉钊钋钌钍钎钏钐钑钒钓钔钕钖钗钘钙钚钛钝钞钟钠钡钢钣钤钥钦钧钨钩钪钫钬钭钮钯钰钱钲钳钴钵钶钷钸钹钺钻钼钽钾钿铀铁铂铃铄铅铆铈铉铊铋铍铎铏铐铑铒铕铗铘铙铚铛铜铝铞铟铠铡铢铣铤铥铦铧铨铪铫铬铭铮铯铰铱铲铳铴铵银铷铸铹铺铻铼铽链铿销锁锂锃锄锅锆锇锈锉锊锋锌锍锎锏锐锑锒锓锔锕锖锗错锚锛锜锝锞锟锠锡锢锣锤锥锦锧锨锩锪锫锬锭键锯锰锱锲锳锴锵锶锷锸锹锺锻锼锽锾锿镀镁镂镃镆镇镈镉镊镋镌镍镎镏镐镑镒镓镔镕镖镗镘镙镚镛镜镝镞镟镠镡镢镣镤镥镦镧镨镩镪镫镬镭镮镯镰镱镲镳镴镶长门闩闪闫闬闭问闯闰闱闲闳间闵闶闷闸闹闺闻闼闽闾闿阀阁阂阃阄阅阆阇阈阉阊阋阌阍阎阏阐阑阒阓阔阕阖阗阘阙阚阛队阳阴阵阶际陆陇陈陉陕陧陨险随隐隶隽难雏雠雳雾霁霡霭靓静靥鞑鞒鞯鞴韦韧韨韩韪韫韬韵页顶顷顸项顺须顼顽顾顿颀颁颂颃预颅领颇颈颉颊颋颌颍颎颏颐频颒颓颔颕颖颗题颙颚颛颜额颞颟颠颡颢颣颤颥颦颧风飏飐飑飒飓飔飕飖飗飘飙飚飞飨餍饣饤饥饦饧饨饩饪饫饬饭饮饯饰饱饲饳饴饵饶饷饸饹饺饻饼饽饾饿馀馁馂馃馄馅馆馇馈馉馊馋馌馍馎馏馐馑馒馓馔馕马驭驮驯驰驱驲驳驴驵驶驷驸驹驺驻驼驽驾驿骀骁骂骃骄骅骆骇骈骉骊骋验骍骎骏骐骑骒骓骔骕骖骗骘骙骚骛骜骝骞骟骠骡骢骣骤骥骦骧髅髋髌鬓魇魉鱼鲁鲜鳞鸟鸡鸣鸥鸦鸭鸿鹅鹤鹰黄黉黡黩黪黾鼋鼍鼗鼹齐齑齿龀龁龂龃龄龅龆龇龈龉龊龋龌龙龚龛龟",
].filter(
  (c) => c !== "里" && c !== "干" && c !== "台" && c !== "余" && c !== "谷" && c !== "郁" && c !== "党" && c !== "丑",
);

describe("locale files", () => {
  it("every module file exists in the three languages, and files never share a top-level key", () => {
    const names = [...localeFiles("cn").keys()].sort();
    expect(names).toContain("core");
    expect([...localeFiles("tw").keys()].sort()).toEqual(names);
    expect([...localeFiles("en").keys()].sort()).toEqual(names);
    const owner = new Map<string, string>();
    for (const [file, contents] of localeFiles("cn")) {
      for (const key of Object.keys(contents)) {
        expect(owner.get(key), `top-level key "${key}" in ${file}.json and ${owner.get(key)}.json`).toBeUndefined();
        owner.set(key, file);
      }
    }
  });

  it("zh-TW and en have exactly the keys of zh-CN", () => {
    const keys = [...cn.keys()].sort();
    expect([...tw.keys()].sort()).toEqual(keys);
    expect([...english.keys()].sort()).toEqual(keys);
  });

  it("no value is empty", () => {
    for (const map of [cn, tw, english]) for (const [k, v] of map) expect(v.trim(), k).not.toBe("");
  });

  it("zh-TW uses traditional characters only", () => {
    const offenders = [...tw].flatMap(([k, v]) =>
      [...v].filter((c) => SIMPLIFIED_ONLY.includes(c)).map((c) => `${k}: ${c}`),
    );
    expect(offenders).toEqual([]);
  });

  it("the contracts' traditional messages use traditional characters too", () => {
    const offenders = Object.entries(MESSAGES).flatMap(([k, v]) =>
      [...v.tw].filter((c) => SIMPLIFIED_ONLY.includes(c)).map((c) => `${k}: ${c}`),
    );
    expect(offenders).toEqual([]);
  });

  it("keeps the same {{placeholders}} in every language", () => {
    const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [k, v] of cn) {
      expect(placeholders(tw.get(k) ?? ""), k).toEqual(placeholders(v));
      expect(placeholders(english.get(k) ?? ""), k).toEqual(placeholders(v));
    }
  });
});

describe("keys used in the code", () => {
  // The storefront (features/mall/storefront, its own entry mall.html) has its own texts, checked by its i18n.test.ts.
  const sources = import.meta.glob<string>(
    ["../**/*.ts", "../**/*.tsx", "!../**/*.test.ts", "!../features/mall/storefront/**"],
    {
      query: "?raw",
      import: "default",
      eager: true,
    },
  );
  const literal = /^(msg:)?[a-zA-Z]\w*(\.\w+)+$/;

  function keysIn(source: string): { literals: string[]; templates: string[] } {
    const literals: string[] = [];
    const templates: string[] = [];
    // Arguments of t(...) calls and the route table's *Key properties.
    const calls = [...source.matchAll(/\bt\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g)].map((m) => m[1] ?? "");
    const props = [...source.matchAll(/\b(?:titleKey|menuKey|nameKey):\s*("[^"]*")/g)].map((m) => m[1] ?? "");
    for (const chunk of [...calls, ...props]) {
      for (const m of chunk.matchAll(/"([^"]*)"/g)) if (m[1] && literal.test(m[1])) literals.push(m[1]);
      for (const m of chunk.matchAll(/`([^`]*\$\{[^`]*)`/g)) if (m[1]) templates.push(m[1]);
    }
    return { literals, templates };
  }

  it("finds the sources", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(20);
  });

  it("every literal key exists in zh-CN (or in the contracts' messages)", () => {
    const missing: string[] = [];
    for (const [file, source] of Object.entries(sources)) {
      for (const key of keysIn(source).literals) {
        const ok = key.startsWith("msg:") ? key.slice(4) in MESSAGES : cn.has(key);
        if (!ok) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("every templated key matches at least one key", () => {
    const missing: string[] = [];
    for (const [file, source] of Object.entries(sources)) {
      for (const template of keysIn(source).templates) {
        const re = new RegExp(
          `^${template
            .split(/\$\{[^}]*\}/)
            .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
            .join("[\\w]+")}$`,
        );
        if (![...cn.keys()].some((k) => re.test(k))) missing.push(`${file}: ${template}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
