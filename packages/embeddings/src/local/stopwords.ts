/**
 * Words that carry no topic: function words, plus the words questions are made of ("how", "can",
 * "should", "way") — a question and the passage that answers it share topic words, not these.
 * Negations ("not", "no") are here too: a bag of words cannot represent them anyway.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all almost also am among an and any anyone anything are
  aren around as at be became because been before being below between both but by can cannot could
  couldn did didn do does doesn doing don done down during each either else etc even ever every
  few for from further get gets getting got had hadn has hasn have haven having he her here hers
  herself him himself his how however i if in into is isn it its itself just least let lets like
  likely may me might mine more most much must mustn my myself need needs neither no nor not now of
  off often on once one only onto or other others otherwise our ours ourselves out over own per
  please possible quite rather really said same say says shall she should shouldn since so some
  something sometimes somehow still such than that the their theirs them themselves then there
  therefore these they thing things this those though through thus to too toward towards under
  until up upon us very via was wasn way ways we well were weren what whatever when whenever where
  whereas wherever whether which while who whom whose why will with within without won would
  wouldn yes yet you your yours yourself yourselves want wants wanted tell know`
    .split(/\s+/)
    .filter((w) => w.length > 0),
);
