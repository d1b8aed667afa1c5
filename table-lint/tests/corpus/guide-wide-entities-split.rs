//! The design guide's wide entities pattern: a year of daily message counts (365 values, more than
//! an entity's 252 properties) split over two entities of one employee, RowKeys  and .
//! Source: /work/shared/seeds/003_12f0337a9bd846f3.txt, "Wide entities pattern".

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "MessageStats", partition_key = "{employee_id}", row_key = "01")]
struct MessageStatsPart1 {
    employee_id: String,
    #[table(rename = "Day001")]
    day_001: i32,
    #[table(rename = "Day002")]
    day_002: i32,
    #[table(rename = "Day003")]
    day_003: i32,
    #[table(rename = "Day004")]
    day_004: i32,
    #[table(rename = "Day005")]
    day_005: i32,
    #[table(rename = "Day006")]
    day_006: i32,
    #[table(rename = "Day007")]
    day_007: i32,
    #[table(rename = "Day008")]
    day_008: i32,
    #[table(rename = "Day009")]
    day_009: i32,
    #[table(rename = "Day010")]
    day_010: i32,
    #[table(rename = "Day011")]
    day_011: i32,
    #[table(rename = "Day012")]
    day_012: i32,
    #[table(rename = "Day013")]
    day_013: i32,
    #[table(rename = "Day014")]
    day_014: i32,
    #[table(rename = "Day015")]
    day_015: i32,
    #[table(rename = "Day016")]
    day_016: i32,
    #[table(rename = "Day017")]
    day_017: i32,
    #[table(rename = "Day018")]
    day_018: i32,
    #[table(rename = "Day019")]
    day_019: i32,
    #[table(rename = "Day020")]
    day_020: i32,
    #[table(rename = "Day021")]
    day_021: i32,
    #[table(rename = "Day022")]
    day_022: i32,
    #[table(rename = "Day023")]
    day_023: i32,
    #[table(rename = "Day024")]
    day_024: i32,
    #[table(rename = "Day025")]
    day_025: i32,
    #[table(rename = "Day026")]
    day_026: i32,
    #[table(rename = "Day027")]
    day_027: i32,
    #[table(rename = "Day028")]
    day_028: i32,
    #[table(rename = "Day029")]
    day_029: i32,
    #[table(rename = "Day030")]
    day_030: i32,
    #[table(rename = "Day031")]
    day_031: i32,
    #[table(rename = "Day032")]
    day_032: i32,
    #[table(rename = "Day033")]
    day_033: i32,
    #[table(rename = "Day034")]
    day_034: i32,
    #[table(rename = "Day035")]
    day_035: i32,
    #[table(rename = "Day036")]
    day_036: i32,
    #[table(rename = "Day037")]
    day_037: i32,
    #[table(rename = "Day038")]
    day_038: i32,
    #[table(rename = "Day039")]
    day_039: i32,
    #[table(rename = "Day040")]
    day_040: i32,
    #[table(rename = "Day041")]
    day_041: i32,
    #[table(rename = "Day042")]
    day_042: i32,
    #[table(rename = "Day043")]
    day_043: i32,
    #[table(rename = "Day044")]
    day_044: i32,
    #[table(rename = "Day045")]
    day_045: i32,
    #[table(rename = "Day046")]
    day_046: i32,
    #[table(rename = "Day047")]
    day_047: i32,
    #[table(rename = "Day048")]
    day_048: i32,
    #[table(rename = "Day049")]
    day_049: i32,
    #[table(rename = "Day050")]
    day_050: i32,
    #[table(rename = "Day051")]
    day_051: i32,
    #[table(rename = "Day052")]
    day_052: i32,
    #[table(rename = "Day053")]
    day_053: i32,
    #[table(rename = "Day054")]
    day_054: i32,
    #[table(rename = "Day055")]
    day_055: i32,
    #[table(rename = "Day056")]
    day_056: i32,
    #[table(rename = "Day057")]
    day_057: i32,
    #[table(rename = "Day058")]
    day_058: i32,
    #[table(rename = "Day059")]
    day_059: i32,
    #[table(rename = "Day060")]
    day_060: i32,
    #[table(rename = "Day061")]
    day_061: i32,
    #[table(rename = "Day062")]
    day_062: i32,
    #[table(rename = "Day063")]
    day_063: i32,
    #[table(rename = "Day064")]
    day_064: i32,
    #[table(rename = "Day065")]
    day_065: i32,
    #[table(rename = "Day066")]
    day_066: i32,
    #[table(rename = "Day067")]
    day_067: i32,
    #[table(rename = "Day068")]
    day_068: i32,
    #[table(rename = "Day069")]
    day_069: i32,
    #[table(rename = "Day070")]
    day_070: i32,
    #[table(rename = "Day071")]
    day_071: i32,
    #[table(rename = "Day072")]
    day_072: i32,
    #[table(rename = "Day073")]
    day_073: i32,
    #[table(rename = "Day074")]
    day_074: i32,
    #[table(rename = "Day075")]
    day_075: i32,
    #[table(rename = "Day076")]
    day_076: i32,
    #[table(rename = "Day077")]
    day_077: i32,
    #[table(rename = "Day078")]
    day_078: i32,
    #[table(rename = "Day079")]
    day_079: i32,
    #[table(rename = "Day080")]
    day_080: i32,
    #[table(rename = "Day081")]
    day_081: i32,
    #[table(rename = "Day082")]
    day_082: i32,
    #[table(rename = "Day083")]
    day_083: i32,
    #[table(rename = "Day084")]
    day_084: i32,
    #[table(rename = "Day085")]
    day_085: i32,
    #[table(rename = "Day086")]
    day_086: i32,
    #[table(rename = "Day087")]
    day_087: i32,
    #[table(rename = "Day088")]
    day_088: i32,
    #[table(rename = "Day089")]
    day_089: i32,
    #[table(rename = "Day090")]
    day_090: i32,
    #[table(rename = "Day091")]
    day_091: i32,
    #[table(rename = "Day092")]
    day_092: i32,
    #[table(rename = "Day093")]
    day_093: i32,
    #[table(rename = "Day094")]
    day_094: i32,
    #[table(rename = "Day095")]
    day_095: i32,
    #[table(rename = "Day096")]
    day_096: i32,
    #[table(rename = "Day097")]
    day_097: i32,
    #[table(rename = "Day098")]
    day_098: i32,
    #[table(rename = "Day099")]
    day_099: i32,
    #[table(rename = "Day100")]
    day_100: i32,
    #[table(rename = "Day101")]
    day_101: i32,
    #[table(rename = "Day102")]
    day_102: i32,
    #[table(rename = "Day103")]
    day_103: i32,
    #[table(rename = "Day104")]
    day_104: i32,
    #[table(rename = "Day105")]
    day_105: i32,
    #[table(rename = "Day106")]
    day_106: i32,
    #[table(rename = "Day107")]
    day_107: i32,
    #[table(rename = "Day108")]
    day_108: i32,
    #[table(rename = "Day109")]
    day_109: i32,
    #[table(rename = "Day110")]
    day_110: i32,
    #[table(rename = "Day111")]
    day_111: i32,
    #[table(rename = "Day112")]
    day_112: i32,
    #[table(rename = "Day113")]
    day_113: i32,
    #[table(rename = "Day114")]
    day_114: i32,
    #[table(rename = "Day115")]
    day_115: i32,
    #[table(rename = "Day116")]
    day_116: i32,
    #[table(rename = "Day117")]
    day_117: i32,
    #[table(rename = "Day118")]
    day_118: i32,
    #[table(rename = "Day119")]
    day_119: i32,
    #[table(rename = "Day120")]
    day_120: i32,
    #[table(rename = "Day121")]
    day_121: i32,
    #[table(rename = "Day122")]
    day_122: i32,
    #[table(rename = "Day123")]
    day_123: i32,
    #[table(rename = "Day124")]
    day_124: i32,
    #[table(rename = "Day125")]
    day_125: i32,
    #[table(rename = "Day126")]
    day_126: i32,
    #[table(rename = "Day127")]
    day_127: i32,
    #[table(rename = "Day128")]
    day_128: i32,
    #[table(rename = "Day129")]
    day_129: i32,
    #[table(rename = "Day130")]
    day_130: i32,
    #[table(rename = "Day131")]
    day_131: i32,
    #[table(rename = "Day132")]
    day_132: i32,
    #[table(rename = "Day133")]
    day_133: i32,
    #[table(rename = "Day134")]
    day_134: i32,
    #[table(rename = "Day135")]
    day_135: i32,
    #[table(rename = "Day136")]
    day_136: i32,
    #[table(rename = "Day137")]
    day_137: i32,
    #[table(rename = "Day138")]
    day_138: i32,
    #[table(rename = "Day139")]
    day_139: i32,
    #[table(rename = "Day140")]
    day_140: i32,
    #[table(rename = "Day141")]
    day_141: i32,
    #[table(rename = "Day142")]
    day_142: i32,
    #[table(rename = "Day143")]
    day_143: i32,
    #[table(rename = "Day144")]
    day_144: i32,
    #[table(rename = "Day145")]
    day_145: i32,
    #[table(rename = "Day146")]
    day_146: i32,
    #[table(rename = "Day147")]
    day_147: i32,
    #[table(rename = "Day148")]
    day_148: i32,
    #[table(rename = "Day149")]
    day_149: i32,
    #[table(rename = "Day150")]
    day_150: i32,
    #[table(rename = "Day151")]
    day_151: i32,
    #[table(rename = "Day152")]
    day_152: i32,
    #[table(rename = "Day153")]
    day_153: i32,
    #[table(rename = "Day154")]
    day_154: i32,
    #[table(rename = "Day155")]
    day_155: i32,
    #[table(rename = "Day156")]
    day_156: i32,
    #[table(rename = "Day157")]
    day_157: i32,
    #[table(rename = "Day158")]
    day_158: i32,
    #[table(rename = "Day159")]
    day_159: i32,
    #[table(rename = "Day160")]
    day_160: i32,
    #[table(rename = "Day161")]
    day_161: i32,
    #[table(rename = "Day162")]
    day_162: i32,
    #[table(rename = "Day163")]
    day_163: i32,
    #[table(rename = "Day164")]
    day_164: i32,
    #[table(rename = "Day165")]
    day_165: i32,
    #[table(rename = "Day166")]
    day_166: i32,
    #[table(rename = "Day167")]
    day_167: i32,
    #[table(rename = "Day168")]
    day_168: i32,
    #[table(rename = "Day169")]
    day_169: i32,
    #[table(rename = "Day170")]
    day_170: i32,
    #[table(rename = "Day171")]
    day_171: i32,
    #[table(rename = "Day172")]
    day_172: i32,
    #[table(rename = "Day173")]
    day_173: i32,
    #[table(rename = "Day174")]
    day_174: i32,
    #[table(rename = "Day175")]
    day_175: i32,
    #[table(rename = "Day176")]
    day_176: i32,
    #[table(rename = "Day177")]
    day_177: i32,
    #[table(rename = "Day178")]
    day_178: i32,
    #[table(rename = "Day179")]
    day_179: i32,
    #[table(rename = "Day180")]
    day_180: i32,
    #[table(rename = "Day181")]
    day_181: i32,
    #[table(rename = "Day182")]
    day_182: i32,
    #[table(rename = "Day183")]
    day_183: i32,
}

#[derive(TableEntity)]
#[table(name = "MessageStats", partition_key = "{employee_id}", row_key = "02")]
struct MessageStatsPart2 {
    employee_id: String,
    #[table(rename = "Day184")]
    day_184: i32,
    #[table(rename = "Day185")]
    day_185: i32,
    #[table(rename = "Day186")]
    day_186: i32,
    #[table(rename = "Day187")]
    day_187: i32,
    #[table(rename = "Day188")]
    day_188: i32,
    #[table(rename = "Day189")]
    day_189: i32,
    #[table(rename = "Day190")]
    day_190: i32,
    #[table(rename = "Day191")]
    day_191: i32,
    #[table(rename = "Day192")]
    day_192: i32,
    #[table(rename = "Day193")]
    day_193: i32,
    #[table(rename = "Day194")]
    day_194: i32,
    #[table(rename = "Day195")]
    day_195: i32,
    #[table(rename = "Day196")]
    day_196: i32,
    #[table(rename = "Day197")]
    day_197: i32,
    #[table(rename = "Day198")]
    day_198: i32,
    #[table(rename = "Day199")]
    day_199: i32,
    #[table(rename = "Day200")]
    day_200: i32,
    #[table(rename = "Day201")]
    day_201: i32,
    #[table(rename = "Day202")]
    day_202: i32,
    #[table(rename = "Day203")]
    day_203: i32,
    #[table(rename = "Day204")]
    day_204: i32,
    #[table(rename = "Day205")]
    day_205: i32,
    #[table(rename = "Day206")]
    day_206: i32,
    #[table(rename = "Day207")]
    day_207: i32,
    #[table(rename = "Day208")]
    day_208: i32,
    #[table(rename = "Day209")]
    day_209: i32,
    #[table(rename = "Day210")]
    day_210: i32,
    #[table(rename = "Day211")]
    day_211: i32,
    #[table(rename = "Day212")]
    day_212: i32,
    #[table(rename = "Day213")]
    day_213: i32,
    #[table(rename = "Day214")]
    day_214: i32,
    #[table(rename = "Day215")]
    day_215: i32,
    #[table(rename = "Day216")]
    day_216: i32,
    #[table(rename = "Day217")]
    day_217: i32,
    #[table(rename = "Day218")]
    day_218: i32,
    #[table(rename = "Day219")]
    day_219: i32,
    #[table(rename = "Day220")]
    day_220: i32,
    #[table(rename = "Day221")]
    day_221: i32,
    #[table(rename = "Day222")]
    day_222: i32,
    #[table(rename = "Day223")]
    day_223: i32,
    #[table(rename = "Day224")]
    day_224: i32,
    #[table(rename = "Day225")]
    day_225: i32,
    #[table(rename = "Day226")]
    day_226: i32,
    #[table(rename = "Day227")]
    day_227: i32,
    #[table(rename = "Day228")]
    day_228: i32,
    #[table(rename = "Day229")]
    day_229: i32,
    #[table(rename = "Day230")]
    day_230: i32,
    #[table(rename = "Day231")]
    day_231: i32,
    #[table(rename = "Day232")]
    day_232: i32,
    #[table(rename = "Day233")]
    day_233: i32,
    #[table(rename = "Day234")]
    day_234: i32,
    #[table(rename = "Day235")]
    day_235: i32,
    #[table(rename = "Day236")]
    day_236: i32,
    #[table(rename = "Day237")]
    day_237: i32,
    #[table(rename = "Day238")]
    day_238: i32,
    #[table(rename = "Day239")]
    day_239: i32,
    #[table(rename = "Day240")]
    day_240: i32,
    #[table(rename = "Day241")]
    day_241: i32,
    #[table(rename = "Day242")]
    day_242: i32,
    #[table(rename = "Day243")]
    day_243: i32,
    #[table(rename = "Day244")]
    day_244: i32,
    #[table(rename = "Day245")]
    day_245: i32,
    #[table(rename = "Day246")]
    day_246: i32,
    #[table(rename = "Day247")]
    day_247: i32,
    #[table(rename = "Day248")]
    day_248: i32,
    #[table(rename = "Day249")]
    day_249: i32,
    #[table(rename = "Day250")]
    day_250: i32,
    #[table(rename = "Day251")]
    day_251: i32,
    #[table(rename = "Day252")]
    day_252: i32,
    #[table(rename = "Day253")]
    day_253: i32,
    #[table(rename = "Day254")]
    day_254: i32,
    #[table(rename = "Day255")]
    day_255: i32,
    #[table(rename = "Day256")]
    day_256: i32,
    #[table(rename = "Day257")]
    day_257: i32,
    #[table(rename = "Day258")]
    day_258: i32,
    #[table(rename = "Day259")]
    day_259: i32,
    #[table(rename = "Day260")]
    day_260: i32,
    #[table(rename = "Day261")]
    day_261: i32,
    #[table(rename = "Day262")]
    day_262: i32,
    #[table(rename = "Day263")]
    day_263: i32,
    #[table(rename = "Day264")]
    day_264: i32,
    #[table(rename = "Day265")]
    day_265: i32,
    #[table(rename = "Day266")]
    day_266: i32,
    #[table(rename = "Day267")]
    day_267: i32,
    #[table(rename = "Day268")]
    day_268: i32,
    #[table(rename = "Day269")]
    day_269: i32,
    #[table(rename = "Day270")]
    day_270: i32,
    #[table(rename = "Day271")]
    day_271: i32,
    #[table(rename = "Day272")]
    day_272: i32,
    #[table(rename = "Day273")]
    day_273: i32,
    #[table(rename = "Day274")]
    day_274: i32,
    #[table(rename = "Day275")]
    day_275: i32,
    #[table(rename = "Day276")]
    day_276: i32,
    #[table(rename = "Day277")]
    day_277: i32,
    #[table(rename = "Day278")]
    day_278: i32,
    #[table(rename = "Day279")]
    day_279: i32,
    #[table(rename = "Day280")]
    day_280: i32,
    #[table(rename = "Day281")]
    day_281: i32,
    #[table(rename = "Day282")]
    day_282: i32,
    #[table(rename = "Day283")]
    day_283: i32,
    #[table(rename = "Day284")]
    day_284: i32,
    #[table(rename = "Day285")]
    day_285: i32,
    #[table(rename = "Day286")]
    day_286: i32,
    #[table(rename = "Day287")]
    day_287: i32,
    #[table(rename = "Day288")]
    day_288: i32,
    #[table(rename = "Day289")]
    day_289: i32,
    #[table(rename = "Day290")]
    day_290: i32,
    #[table(rename = "Day291")]
    day_291: i32,
    #[table(rename = "Day292")]
    day_292: i32,
    #[table(rename = "Day293")]
    day_293: i32,
    #[table(rename = "Day294")]
    day_294: i32,
    #[table(rename = "Day295")]
    day_295: i32,
    #[table(rename = "Day296")]
    day_296: i32,
    #[table(rename = "Day297")]
    day_297: i32,
    #[table(rename = "Day298")]
    day_298: i32,
    #[table(rename = "Day299")]
    day_299: i32,
    #[table(rename = "Day300")]
    day_300: i32,
    #[table(rename = "Day301")]
    day_301: i32,
    #[table(rename = "Day302")]
    day_302: i32,
    #[table(rename = "Day303")]
    day_303: i32,
    #[table(rename = "Day304")]
    day_304: i32,
    #[table(rename = "Day305")]
    day_305: i32,
    #[table(rename = "Day306")]
    day_306: i32,
    #[table(rename = "Day307")]
    day_307: i32,
    #[table(rename = "Day308")]
    day_308: i32,
    #[table(rename = "Day309")]
    day_309: i32,
    #[table(rename = "Day310")]
    day_310: i32,
    #[table(rename = "Day311")]
    day_311: i32,
    #[table(rename = "Day312")]
    day_312: i32,
    #[table(rename = "Day313")]
    day_313: i32,
    #[table(rename = "Day314")]
    day_314: i32,
    #[table(rename = "Day315")]
    day_315: i32,
    #[table(rename = "Day316")]
    day_316: i32,
    #[table(rename = "Day317")]
    day_317: i32,
    #[table(rename = "Day318")]
    day_318: i32,
    #[table(rename = "Day319")]
    day_319: i32,
    #[table(rename = "Day320")]
    day_320: i32,
    #[table(rename = "Day321")]
    day_321: i32,
    #[table(rename = "Day322")]
    day_322: i32,
    #[table(rename = "Day323")]
    day_323: i32,
    #[table(rename = "Day324")]
    day_324: i32,
    #[table(rename = "Day325")]
    day_325: i32,
    #[table(rename = "Day326")]
    day_326: i32,
    #[table(rename = "Day327")]
    day_327: i32,
    #[table(rename = "Day328")]
    day_328: i32,
    #[table(rename = "Day329")]
    day_329: i32,
    #[table(rename = "Day330")]
    day_330: i32,
    #[table(rename = "Day331")]
    day_331: i32,
    #[table(rename = "Day332")]
    day_332: i32,
    #[table(rename = "Day333")]
    day_333: i32,
    #[table(rename = "Day334")]
    day_334: i32,
    #[table(rename = "Day335")]
    day_335: i32,
    #[table(rename = "Day336")]
    day_336: i32,
    #[table(rename = "Day337")]
    day_337: i32,
    #[table(rename = "Day338")]
    day_338: i32,
    #[table(rename = "Day339")]
    day_339: i32,
    #[table(rename = "Day340")]
    day_340: i32,
    #[table(rename = "Day341")]
    day_341: i32,
    #[table(rename = "Day342")]
    day_342: i32,
    #[table(rename = "Day343")]
    day_343: i32,
    #[table(rename = "Day344")]
    day_344: i32,
    #[table(rename = "Day345")]
    day_345: i32,
    #[table(rename = "Day346")]
    day_346: i32,
    #[table(rename = "Day347")]
    day_347: i32,
    #[table(rename = "Day348")]
    day_348: i32,
    #[table(rename = "Day349")]
    day_349: i32,
    #[table(rename = "Day350")]
    day_350: i32,
    #[table(rename = "Day351")]
    day_351: i32,
    #[table(rename = "Day352")]
    day_352: i32,
    #[table(rename = "Day353")]
    day_353: i32,
    #[table(rename = "Day354")]
    day_354: i32,
    #[table(rename = "Day355")]
    day_355: i32,
    #[table(rename = "Day356")]
    day_356: i32,
    #[table(rename = "Day357")]
    day_357: i32,
    #[table(rename = "Day358")]
    day_358: i32,
    #[table(rename = "Day359")]
    day_359: i32,
    #[table(rename = "Day360")]
    day_360: i32,
    #[table(rename = "Day361")]
    day_361: i32,
    #[table(rename = "Day362")]
    day_362: i32,
    #[table(rename = "Day363")]
    day_363: i32,
    #[table(rename = "Day364")]
    day_364: i32,
    #[table(rename = "Day365")]
    day_365: i32,
}

/// The two point reads that rebuild the year.
fn part_1() -> Query {
    Query::filter("PartitionKey eq '000123' and RowKey eq '01'").unwrap()
}

fn part_2() -> Query {
    Query::filter("PartitionKey eq '000123' and RowKey eq '02'").unwrap()
}
