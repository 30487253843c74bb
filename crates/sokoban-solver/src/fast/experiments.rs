//! The fast search's development switches, as typed options: each leaves the default search
//! as it is when off, so a search's moves depend only on what its caller passes (the CLI
//! alone reads them from a flag or the environment, through [`Experiments::parse`]).

/// Which strategies of the schedule run, when not all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Only {
    /// The rules strategy alone.
    Rules,
    /// The scored strategies alone.
    Scored,
}

/// Where Festival's rule against inefficient stops of a macro move ([`super::stops`]) cuts
/// the moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StopRule {
    /// Nowhere (`nostops`).
    Off,
    /// Its tunnels alone, in the scored strategies: a box stops inside no tunnel. The
    /// passage mouths cut the way on levels of many boxes (`stopscored`, lane 0 alone, 1M
    /// moves, 512 MiB, 40 levels of 20+ boxes: 23 -> 17); the tunnels alone 23 -> 22 with
    /// ×0.86 the moves where both solve, and Sasquatch VI 17 solved (bench/decisions.md).
    #[default]
    Tunnels,
    /// In every strategy (`stops`).
    All,
    /// In the scored strategies (`stopscored`).
    Scored,
}

/// Development switches of the fast search; the default is the search as shipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Experiments {
    // The schedule.
    /// Only these strategies (`rules`, `scored`).
    pub only: Option<Only>,
    /// No alternation with the cell of the best features (`noalt`).
    pub no_alternate_best: bool,
    /// No advisors (`noadv`).
    pub no_advisors: bool,
    /// No corral rule in move generation (`nocorral`).
    pub no_corral_moves: bool,
    /// The corral rule also where the corral is held by a box a done plan step parked
    /// (`parkcorral`; see `Fess::corral_parked`).
    pub park_corral: bool,
    /// The scored strategies' moves per turn (`scoredshareN`).
    pub scored_share: Option<u64>,
    /// No strategies on the plan without parking (`oneplan`).
    pub one_plan: bool,
    /// No probes on the one-cluster-first plans (`noclusterplans`).
    pub no_cluster_plans: bool,
    /// No greedy probe (`nogreedy`).
    pub no_greedy: bool,
    /// No sprint (`nosprint`).
    pub no_sprint: bool,
    /// No scored strategy on the greedy removals' plan (`nootherplan`).
    pub no_other_plan: bool,
    /// No HF stage (`nohf`).
    pub no_hf: bool,
    /// Moves of the strategies before the HF stage begins (`hfafterN`; 0: its backward
    /// search at once, a perimeter from the start).
    pub hf_after: Option<u64>,
    /// While the strategies have made fewer moves than the HF stage usually waits for, its
    /// backward search takes one call in this many, not one in three (`pulleveryN`).
    pub pull_every: Option<u64>,
    /// Moves without a rise of the best packed count after which the HF stage begins
    /// (`stallN`; default `STALL_MOVES`), and no such trigger (`nostall`).
    pub stall: Option<u64>,
    /// Pulls of the HF stage's backward search before its HF search starts (`hfpullsN`).
    pub hf_pulls: Option<u64>,
    pub no_stall: bool,
    /// The stall trigger also fires while nothing is packed yet (`stallzero`).
    pub stall_zero: bool,
    /// The HF search ends once its best packed count has not risen for this many of its
    /// moves, not after a fixed number of moves (`hfstallN`).
    pub hf_stall: Option<u64>,
    /// The HF search counts the boxes on its target squares in any order (`hfunordered`).
    pub hf_unordered: bool,
    /// The HF search ranks by fewer areas first (`hfregions`).
    pub hf_regions: bool,
    /// Festival's HF form on a level of fewer boxes than the many-box form's default
    /// counts the target in its packing plan's order with the plain scores (`hffew`).
    pub hf_few: bool,
    /// With `hf_few`, the box count below which it applies instead of the many-box form's
    /// (`hffewN`, for studies).
    pub hf_few_below: Option<usize>,
    /// The HF search that ranks areas first scores as the others do, not with Festival's
    /// HF features (`nohfhot`).
    pub no_hf_hot: bool,
    /// The HF stage's backward search toward the start squares searches best first by
    /// the matching to them (`dragonfly`, [`super::back::Backward::dragonfly`]).
    pub dragonfly: bool,
    /// The HF stage does not begin with the dragonfly search's attempt
    /// (`nodragonflyfirst`; see [`super::FastSearch::attempt`]).
    pub no_dragonfly_first: bool,
    /// The moves of the HF search in the dragonfly search's attempt (`dragonflyfirstN`).
    pub dragonfly_first: Option<u64>,
    /// The pulls of the dragonfly search's attempt before its HF search (`dfpullsN`).
    pub df_pulls: Option<u64>,
    /// The backward searches keep positions that shut the player in for good
    /// (`noconfine`, [`crate::analysis::deadlock::confine`]).
    pub no_confine: bool,
    /// The confinement test's reduced searches expand at most N positions (`confineN`).
    pub confine_limit: Option<usize>,
    /// The dragonfly search queues each position by its best pull alone (`dfpure`; lane 1's).
    pub df_pure: bool,
    /// The dragonfly search queues each position by its own key (not its best pull's),
    /// oldest first among equals, so that its pulls are made in turn once it is picked,
    /// as Festival's (`dfnode`).
    pub df_node: bool,
    /// The backward searches (not the packing searches) may leave a box where Festival's
    /// pull mode calls the stop inefficient (`nopullstops`, [`super::stops::Stops::for_pulls`]).
    pub no_pull_stops: bool,
    /// The backward searches' stores grow within their budget and fill it (`fillstore`);
    /// by default they double and stop at the first doubling past it, between half and
    /// all of it used.
    pub fill_store: bool,
    /// A backward position keeps only its first two pulls until it is picked the second
    /// time, when its pulls are made again (`lazypulls`): most positions never are.
    pub lazy_pulls: bool,
    /// The backward searches (not the packing or dragonfly searches) advise, beside the pull
    /// of a box off a goal, the pull that leaves the fewest floor areas where that is fewer
    /// than before (`backconn`: Festival's connectivity advisor; the HF search's target,
    /// cut into areas, is met only with the player in its own).
    pub back_conn: bool,
    /// The dragonfly search without its corral rule (`nodfcorral`, see
    /// [`super::back::Backward::dragonfly`]).
    pub no_df_corral: bool,
    /// The backward searches keep positions with a box that can never be pulled again off
    /// the start squares (`nopullstuck`).
    pub no_pull_stuck: bool,
    /// HF searches the stage makes, each with a backward search of its own (`hfattemptsN`).
    pub hf_attempts: Option<u32>,
    /// On a level of many boxes, the HF stage's first backward search pulls away from the
    /// goals, the second toward the start squares (`manyaway`).
    pub many_away: bool,
    /// The HF stage's backward search pulling away from the goals ranks its positions by
    /// floor areas, then squares on no cycle of the free floor (`bicon`; see
    /// [`super::back::Backward::open`]).
    pub open_back: bool,
    /// The backward search's new positions not looked up in the forward searches' stores,
    /// only theirs in its (`nomeetback`; see [`super::back::Backward::record_fresh`]).
    pub no_meet_back: bool,
    /// A scored strategy makes a new child its move generation finds in the perimeter
    /// when its turn comes, not at once (`nomeetahead`; see `Fess::ahead`).
    pub no_meet_ahead: bool,
    /// On a level of many boxes, the backward search toward the start squares takes as the
    /// HF search's target its position nearest them ([`super::back::Backward::near`];
    /// `manynear`).
    pub many_near: bool,
    /// No second packing search by Festival's rules where the first leaves boxes on the
    /// board (`nopackagain`).
    pub no_pack_again: bool,
    /// The packing search by Festival's rules on every level (with the first's moves
    /// where the first places every box), its plan taken where it leaves no more boxes on
    /// the board than the first's (`packfestival`).
    pub pack_festival: bool,
    /// Boxes from which the HF stage starts at once in its Festival form (`manyN`;
    /// `nomany`: never).
    pub many_boxes: Option<Option<usize>>,
    /// The backward search from the start as a perimeter, instead of the HF stage (`back`).
    pub back_perimeter: bool,
    // The plan.
    /// The plan fills goal clusters one by one (`cluster`).
    pub plan_per_cluster: bool,
    /// The plan without its parking steps only (`noparksteps`).
    pub plan_no_parking: bool,
    /// The greedy removals' plan instead of the packing search's (`nopacksearch`).
    pub no_packing_search: bool,
    /// The packing search's plan even where it cannot be followed from the start and the
    /// greedy removals' can (`packingplan`; see [`super::followed_plan`]).
    pub packing_plan: bool,
    /// Never the supplied packing search's plan (`nosupplied`; see [`super::followed_plan`]).
    pub no_supplied_packing: bool,
    /// Where neither the packing search's plan nor the greedy removals' can be followed,
    /// the packing search's even where the greedy removals' goes further before its first
    /// dead prefix (`nofurthest`; see [`super::followed_plan`]).
    pub no_furthest: bool,
    /// Moves the search makes before the supplied packing search runs, where it runs at
    /// all (`suppliedafterN`; 0: before the search starts).
    pub supplied_after: Option<u64>,
    /// A packing plan by hand: its steps in order, each the (row, column) of a square and,
    /// for a parking step, of the square its box moves on to at a later step
    /// (`order=r:c;r:c>r:c;...`); every goal filled once (see [`super::plan::Step`]).
    pub order: Option<Vec<HandStep>>,
    // Features and advisors.
    /// No approacher (`noapproach`).
    pub no_approach: bool,
    /// No area joiner (`nojoin`).
    pub no_join: bool,
    /// No passage opener (`nolink`).
    pub no_link: bool,
    /// No out-of-plan remover (`nooop`).
    pub no_out_of_plan: bool,
    /// The scored strategy's opener advisor (`opener`; see `Fess::opener`).
    pub opener: bool,
    /// The scored strategy's explorer advisor (`explorer`; see `Fess::explorer`).
    pub explorer: bool,
    /// Parked boxes count as packed at once, not until their goal's step (`nountil`).
    pub no_until: bool,
    // Deadlock tests.
    /// No two-box deadlock table (`nopairs`).
    pub no_pairs: bool,
    /// No reduced problems of boxes frozen on goals (`noreduced`).
    pub no_reduced: bool,
    /// PI-corrals of several areas together (`merge`; see `analysis::corral`): not the
    /// default; two of the portfolio's lanes use it (`lane_experiments`).
    pub merge: bool,
    /// No pocket stuck test (`nopockets`).
    pub no_pockets: bool,
    /// Positions the stuck test of the boxes near a move may search (`localN`).
    pub local_limit: Option<usize>,
    /// Most boxes in the stuck test near a move (`localboxesN`).
    pub local_boxes: Option<usize>,
    /// No supply check in the greedy removals' plan (`nosupply`).
    pub no_supply: bool,
    // Move rules.
    /// Festival's rule against inefficient stops (`stops`, `stopscored`, `nostops`).
    pub stops: StopRule,
    // The portfolio.
    /// Lanes' endings ordered by their turns ([`super::FastSearch::turns`]), not by the
    /// operations of their calls ([`super::FastSearch::op_work`]) (`turnwork`; every lane
    /// takes lane 0's: [`lane_experiments`]).
    pub turn_work: bool,
    // Read-outs.
    /// Keep a trace of the schedule's events (which strategy solved, the HF stage's steps)
    /// for [`super::FastSearch::take_trace`] (`trace`).
    pub trace: bool,
    /// A reference solution (`watch=LURD`, from the level's start): the search counts the
    /// deepest of its positions it stores and any it calls dead ([`super::fess::FessStats`]),
    /// to show where a peer's path leaves ours.
    pub watch: Option<String>,
}

impl Experiments {
    /// Switches from their names, comma separated (e.g. `rules,noadv`, `order=3:4;3:5`);
    /// an unknown name is an error that says which.
    pub fn parse(text: &str) -> Result<Experiments, String> {
        let mut e = Experiments::default();
        for name in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let on = match name {
                "rules" => {
                    e.only = Some(Only::Rules);
                    continue;
                }
                "scored" => {
                    e.only = Some(Only::Scored);
                    continue;
                }
                "stops" => {
                    e.stops = StopRule::All;
                    continue;
                }
                "stopscored" => {
                    e.stops = StopRule::Scored;
                    continue;
                }
                "nostops" => {
                    e.stops = StopRule::Off;
                    continue;
                }
                "noalt" => &mut e.no_alternate_best,
                "noadv" => &mut e.no_advisors,
                "nocorral" => &mut e.no_corral_moves,
                "parkcorral" => &mut e.park_corral,
                "oneplan" => &mut e.one_plan,
                "noclusterplans" => &mut e.no_cluster_plans,
                "nogreedy" => &mut e.no_greedy,
                "nosprint" => &mut e.no_sprint,
                "nootherplan" => &mut e.no_other_plan,
                "nohf" => &mut e.no_hf,
                "back" => &mut e.back_perimeter,
                "cluster" => &mut e.plan_per_cluster,
                "noparksteps" => &mut e.plan_no_parking,
                "nopacksearch" => &mut e.no_packing_search,
                "packingplan" => &mut e.packing_plan,
                "nosupplied" => &mut e.no_supplied_packing,
                "nofurthest" => &mut e.no_furthest,
                "noapproach" => &mut e.no_approach,
                "nojoin" => &mut e.no_join,
                "nolink" => &mut e.no_link,
                "nooop" => &mut e.no_out_of_plan,
                "nountil" => &mut e.no_until,
                "opener" => &mut e.opener,
                "explorer" => &mut e.explorer,
                "nopairs" => &mut e.no_pairs,
                "noreduced" => &mut e.no_reduced,
                "nopockets" => &mut e.no_pockets,
                "merge" => &mut e.merge,
                "nosupply" => &mut e.no_supply,
                "trace" => &mut e.trace,
                "nostall" => &mut e.no_stall,
                "stallzero" => &mut e.stall_zero,
                "hfunordered" => &mut e.hf_unordered,
                "hfregions" => &mut e.hf_regions,
                "hffew" => &mut e.hf_few,
                "nohfhot" => &mut e.no_hf_hot,
                "dragonfly" => &mut e.dragonfly,
                "nodragonflyfirst" => &mut e.no_dragonfly_first,
                "nodfcorral" => &mut e.no_df_corral,
                "nopullstuck" => &mut e.no_pull_stuck,
                "noconfine" => &mut e.no_confine,
                "dfpure" => &mut e.df_pure,
                "dfnode" => &mut e.df_node,
                "nopullstops" => &mut e.no_pull_stops,
                "fillstore" => &mut e.fill_store,
                "lazypulls" => &mut e.lazy_pulls,
                "manyaway" => &mut e.many_away,
                "bicon" => &mut e.open_back,
                "nomeetback" => &mut e.no_meet_back,
                "nomeetahead" => &mut e.no_meet_ahead,
                "manynear" => &mut e.many_near,
                "nopackagain" => &mut e.no_pack_again,
                "packfestival" => &mut e.pack_festival,
                "backconn" => &mut e.back_conn,
                "turnwork" => &mut e.turn_work,
                _ => {
                    if let Some(k) = numbered::<u64>(name, "pullevery") {
                        e.pull_every = Some(k?.max(1));
                    } else if let Some(k) = numbered(name, "suppliedafter") {
                        e.supplied_after = Some(k?);
                    } else if let Some(k) = numbered(name, "hfpulls") {
                        e.hf_pulls = Some(k?);
                    } else if let Some(k) = numbered(name, "localboxes") {
                        e.local_boxes = Some(k?);
                    } else if let Some(k) = numbered(name, "local") {
                        e.local_limit = Some(k?);
                    } else if let Some(k) = numbered(name, "confine") {
                        e.confine_limit = Some(k?);
                    } else if let Some(k) = numbered(name, "dfpulls") {
                        e.df_pulls = Some(k?);
                    } else if let Some(k) = numbered(name, "dragonflyfirst") {
                        e.dragonfly_first = Some(k?);
                    } else if let Some(k) = numbered(name, "hfattempts") {
                        e.hf_attempts = Some(k?);
                    } else if name == "nomany" {
                        e.many_boxes = Some(None);
                    } else if let Some(k) = numbered(name, "many") {
                        e.many_boxes = Some(Some(k?));
                    } else if let Some(k) = numbered(name, "hffew") {
                        (e.hf_few, e.hf_few_below) = (true, Some(k?));
                    } else if let Some(k) = numbered(name, "hfstall") {
                        e.hf_stall = Some(k?);
                    } else if let Some(k) = numbered(name, "stall") {
                        e.stall = Some(k?);
                    } else if let Some(k) = numbered(name, "hfafter") {
                        e.hf_after = Some(k?);
                    } else if let Some(k) = numbered(name, "scoredshare") {
                        e.scored_share = Some(k?);
                    } else if let Some(lurd) = name.strip_prefix("watch=") {
                        e.watch = Some(lurd.to_string());
                    } else if let Some(order) = name.strip_prefix("order=") {
                        e.order = Some(parse_order(order)?);
                    } else {
                        return Err(format!("unknown experiment '{name}'"));
                    }
                    continue;
                }
            };
            *on = true;
        }
        Ok(e)
    }
}

/// The switches of the portfolio's other lanes, in the order lanes are added: each the
/// schedule that adds the most levels of the whole development suite to the lanes before
/// it, within 500,000 moves and pulls a lane (`bench/lane-cover.py`;
/// runs/2026-11-29-pulls-counted: lane 0 alone 373 of 495, two lanes 388, three 393, four
/// 396). At 250,000 the opener lane would come first: it solves early, the others later.
/// - Lane 1, Festival's HF form from the start on every level, its first backward search
///   pulling away from the goals and ranking by the free squares on no cycle (Festival's
///   biconnected strategy, `bicon`): +15, eight of them Sasquatch III's, IV's and V's. On
///   a level of fewer than 20 boxes its HF search follows the target's packing plan
///   (`hffew`): 20 -> 25 of the 47 such levels lane 0 misses at 250,000, at 1,000,000.
///   It keeps the packing search's plan where lane 0 follows another (`packingplan`): two
///   threads, 30 s, on the 55 of lane 0's misses whose plan that changes, Sasquatch I 46
///   (1.9 s; Festival: two cores only), III 13 and V 47 won, none lost. It runs the
///   packing search by Festival's rules on every level and follows its plan where that
///   leaves no more boxes on the board (`packfestival`), so that the two lanes follow two
///   packing orders: two threads, on the 15 levels where lane 1 alone changed at 30 s,
///   XSokoban 29 (11.2 s), Sasquatch III 50 and IV 43 won, none lost. In lane 0 it loses
///   as much as it wins (250,000 moves: 135 -> 134 of the 215 levels whose plan it changes).
///   Its HF stage begins with the dragonfly search's attempt as lane 0's does, but in
///   Festival's queue order (`dfpure`), so the two lanes leave the dragonfly search's
///   plateaus by different ways: two threads, 30 s, on the 78 levels the two lanes left
///   unsolved or solved after 2 s, Sasquatch I 37 won (4.1 s), none lost (at 250,000 moves
///   a lane it costs lane 1 more than it gains: 378 -> 374 for the two lanes). Its backward
///   searches leave out Festival's stop rule for pulls (`nopullstops`), which lane 0 keeps:
///   the rule cut the way to Sasquatch IV 42 and III 24, both solved that morning only by
///   Festival (lane 1 alone, 512 MiB, 2,000,000 moves and pulls, 42 levels: 21 -> 22, VI 43,
///   lane 0's anyway, lost at the budget's edge; two threads, 30 s: IV 42 won, none lost;
///   runs/2026-12-02-lane1-no-pull-stops).
/// - Lane 2, the backward search from the start as a perimeter at a small share: where the
///   plan misleads, meeting it solves small and middling levels. It keeps the packing
///   search's plan where lane 0 follows the greedy removals' ([`super::followed_plan`]); on
///   a level of many boxes, where lane 0's HF stage also starts at once, its HF search aims
///   at the backward position nearest the start squares (`manynear`); its PI-corrals may
///   be several areas together (`merge`, not the default: it sends some searches a long
///   way round). +5.
/// - Lane 3, the opener and explorer advisors. +3.
/// - Lane 4, lane 2 on the greedy removals' plan. +1.
/// - Lanes 5–7 (Festival's stop rule in the scored strategies; a plan filling goal
///   clusters one by one; the rules strategy alone), chosen the same way at 250,000 moves
///   before pulls were counted: +1, 0, 0 then.
///
/// Lanes 2 and on do not begin the HF stage with the dragonfly search's attempt
/// (`nodragonflyfirst`): lanes 0 and 1 make it, and lanes 2 and on were chosen without it.
/// Lanes 1 and on were chosen before lane 0 took the stop rule's tunnels and leave them
/// out (`nostops`); lane 5 has the whole rule in its scored strategies.
const LANES: [&str; 7] = [
    "many0,manyaway,bicon,hffew,packingplan,packfestival,dfpure,nopullstops,nostops",
    "hfafter0,pullevery8,packingplan,manynear,merge,nodragonflyfirst,nostops",
    "opener,explorer,nodragonflyfirst,nostops",
    "hfafter0,pullevery8,nopacksearch,manynear,merge,nodragonflyfirst,nostops",
    "stopscored,nodragonflyfirst",
    "cluster,nodragonflyfirst,nostops",
    "rules,nodragonflyfirst,nostops",
];

/// The switches of portfolio lane `k` ([`crate::portfolio`]): lane 0 runs `base` (the
/// search as shipped unless the caller switches something), lane `k` > 0 the `k`-th of
/// the other schedules, cycling past the last, with `base`'s portfolio switches (every
/// lane must count its work alike).
pub fn lane_experiments(k: usize, base: &Experiments) -> Experiments {
    match k {
        0 => base.clone(),
        k => Experiments {
            turn_work: base.turn_work,
            ..Experiments::parse(LANES[(k - 1) % LANES.len()]).expect("lane switches parse")
        },
    }
}

/// A switch named `prefix` and a number, as that number; `None` when `name` is not one.
fn numbered<T: std::str::FromStr>(name: &str, prefix: &str) -> Option<Result<T, String>> {
    let k = name.strip_prefix(prefix)?;
    Some(k.parse().map_err(|_| format!("'{name}': {prefix} takes a number")))
}

/// One step of a plan given by hand: a square as (row, column), and for a parking step the
/// square its box moves on to.
pub type HandStep = ((usize, usize), Option<(usize, usize)>);

/// `r:c;r:c>r:c;...` as steps.
fn parse_order(text: &str) -> Result<Vec<HandStep>, String> {
    let square = |rc: &str| {
        let (r, c) = rc.split_once(':').ok_or(format!("order: '{rc}' is not row:column"))?;
        let n = |s: &str| s.trim().parse::<usize>().map_err(|_| format!("order: '{rc}'"));
        Ok::<_, String>((n(r)?, n(c)?))
    };
    text.split(';')
        .map(|step| match step.split_once('>') {
            Some((at, then)) => Ok((square(at)?, Some(square(then)?))),
            None => Ok((square(step)?, None)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_to_their_switches_and_unknown_ones_are_refused() {
        let e = Experiments::parse("rules, noadv,scoredshare3,order=1:2;3:4,stopscored").unwrap();
        assert_eq!(e.only, Some(Only::Rules));
        assert!(e.no_advisors && !e.no_pairs);
        assert_eq!(e.scored_share, Some(3));
        assert_eq!(e.stops, StopRule::Scored);
        assert_eq!(Experiments::default().stops, StopRule::Tunnels);
        assert_eq!(Experiments::parse("nostops").unwrap().stops, StopRule::Off);
        assert_eq!(e.order, Some(vec![((1, 2), None), ((3, 4), None)]));
        let e = Experiments::parse("order=1:2>5:6;5:6").unwrap();
        assert_eq!(e.order, Some(vec![((1, 2), Some((5, 6))), ((5, 6), None)]));
        assert!(Experiments::parse("order=1;2").unwrap_err().contains("row:column"));
        assert_eq!(Experiments::parse("").unwrap(), Experiments::default());
        assert!(Experiments::parse("nosuch").unwrap_err().contains("nosuch"));
        assert!(Experiments::parse("scoredsharex").is_err());
        let e = Experiments::parse("stall7,hfpulls9,nostall").unwrap();
        assert_eq!((e.stall, e.hf_pulls, e.no_stall), (Some(7), Some(9), true));
        assert!(Experiments::parse("stall").is_err());
        assert!(Experiments::parse("stallzero").unwrap().stall_zero);
        let e = Experiments::parse(
            "confine16,dfpulls5,dfpure,noconfine,dfnode,nopullstops,fillstore,lazypulls",
        )
        .unwrap();
        assert_eq!((e.confine_limit, e.df_pulls), (Some(16), Some(5)));
        assert!(
            e.df_pure
                && e.no_confine
                && e.df_node
                && e.no_pull_stops
                && e.fill_store
                && e.lazy_pulls
        );
        let e = Experiments::parse("many24,hfstall5,hfunordered,hfregions").unwrap();
        assert_eq!((e.many_boxes, e.hf_stall), (Some(Some(24)), Some(5)));
        assert!(e.hf_unordered && e.hf_regions);
        assert_eq!(Experiments::parse("nomany").unwrap().many_boxes, Some(None));
        assert_eq!(Experiments::parse("hfattempts4").unwrap().hf_attempts, Some(4));
        let e = Experiments::parse("hffew").unwrap();
        assert!(e.hf_few && e.hf_few_below.is_none());
        let e = Experiments::parse("hffew30").unwrap();
        assert_eq!((e.hf_few, e.hf_few_below), (true, Some(30)));
        assert!(Experiments::parse("manyx").is_err());
        let e = Experiments::parse("opener,explorer").unwrap();
        assert!(e.opener && e.explorer && !Experiments::default().opener);
        let e = Experiments::parse("manyaway,manynear").unwrap();
        assert!(e.many_away && e.many_near && !Experiments::default().many_away);
        assert!(
            Experiments::parse("backconn").unwrap().back_conn && !Experiments::default().back_conn
        );
        // `local` is a prefix of `localboxes`: each number goes to its own switch.
        let e = Experiments::parse("localboxes14,local1000").unwrap();
        assert_eq!((e.local_boxes, e.local_limit), (Some(14), Some(1000)));
        assert_eq!(Experiments::parse("local0").unwrap().local_limit, Some(0));
        assert!(Experiments::parse("localboxes").is_err());
    }

    #[test]
    fn every_lane_of_eight_parses_to_a_schedule_of_its_own() {
        // Lanes past the machine's cores run only on larger machines: their switches are
        // checked here, not first in a lane's thread.
        let base = Experiments::default();
        let lanes: Vec<Experiments> = (0..8).map(|k| lane_experiments(k, &base)).collect();
        assert_eq!(lanes[0], base);
        for (i, a) in lanes.iter().enumerate() {
            for b in &lanes[i + 1..] {
                assert_ne!(a, b, "lane {i} repeats a later lane");
            }
        }
        assert!(
            lanes[1].open_back && lanes[2].merge && lanes[3].opener && lanes[4].no_packing_search
        );
        // Lanes 0 and 1 begin with the dragonfly search, each in its own order.
        assert!(!lanes[0].no_dragonfly_first && !lanes[0].df_pure);
        assert!(!lanes[1].no_dragonfly_first && lanes[1].df_pure);
        assert!(lanes[2..].iter().all(|l| l.no_dragonfly_first));
        // Festival's stop rule for pulls: lane 1 alone leaves it out.
        assert!(!lanes[0].no_pull_stops && lanes[1].no_pull_stops);
        assert!(lanes[2..].iter().all(|l| !l.no_pull_stops));
        // The stop rule for pushes: lane 0 its tunnels, lane 5 the whole rule, none else.
        assert_eq!(lanes[0].stops, StopRule::Tunnels);
        assert_eq!(lanes[5].stops, StopRule::Scored);
        assert!(lanes[1..].iter().all(|l| matches!(l.stops, StopRule::Off | StopRule::Scored)));
        assert_eq!(lane_experiments(8, &base), lanes[1], "past the last, the lanes cycle");
    }
}
