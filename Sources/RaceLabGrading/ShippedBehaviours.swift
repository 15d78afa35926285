// Written by `RACELAB_RECORD=1 swift test --filter ShippedBehavioursTests` from the
// shipped scenarios and exercises; do not edit.

/// What the spoiler guard knows of the shipped files without reading the disk, so
/// that a folder laid out to look shipped, a missing or replaced exercises folder,
/// or a binary handed out alone changes nothing (docs/TEACHING.md, "What the guard
/// holds").
public enum ShippedBehaviours {
    /// `Behaviour.textHash` of each shipped scenario's text: these are explored
    /// without a guard (tested to behave as no exercise).
    public static let scenarios: Set<UInt64> = [
        0x27d0_f47b_2e82_1aa3,
        0xc24b_de7b_925f_48ab,
        0x192c_48c2_d7e0_bed9,
        0x5816_5cac_6aeb_2b06,
        0x5caa_6e25_ac97_d7ea,
        0x5a89_2ff2_872a_68f3,
        0xabd2_928a_2a6f_5c8b,
        0xbdb0_ad53_906e_c844,
        0xec68_3174_54f8_6c56,
        0xa607_889b_87af_5660,
        0xf2f8_efea_1148_ed1f,
        0xb53f_7639_59c0_cdfc,
        0x1c2a_3184_daa7_c85a,
        0x80f7_5707_c242_3169,
        0x3ecb_c8bc_35dc_2ade,
        0x9cde_9538_294d_435f,
        0xff2b_a796_ea7d_0ad6,
        0xe306_d692_4258_a4f1,
        0x4951_7fe8_942a_6089,
        0x99fa_d599_1561_80c6,
        0xd902_59a4_e298_600d,
        0x6b27_36bd_34f1_aacc,
        0x9945_14f6_1804_1be6,
        0xcbfa_7e2f_90fb_8d10,
        0x4209_842b_abcf_47c3,
        0x57c3_78cd_ca0b_648c,
        0x3c9_4f95_69f4_f30c,
        0xca0_f622_d2c8_c734,
    ]

    /// Each shipped break-it and predict-it exercise: its ID, kind and behaviour.
    public static let exercises: [(id: String, kind: Exercise.Kind, behaviour: Behaviour)] = [
        (
            "array-break", .breakIt,
            Behaviour(
                outcomes: [
                    ["completed", "12 traces", "18"],
                    ["crashed", "4 traces", "0"],
                ], size: .init(executions: 16, states: 0, steps: 8))
        ),
        (
            "atomic-predict", .predictIt,
            Behaviour(
                outcomes: [
                    ["completed", "1 traces", "150"],
                    ["completed", "1 traces", "200"],
                    ["completed", "1 traces", "250"],
                    ["completed", "1 traces", "300"],
                ], size: .init(executions: 4, states: 0, steps: 4))
        ),
        (
            "counter-actor-predict", .predictIt,
            Behaviour(
                outcomes: [
                    ["completed", "2 traces", "1 object created", "1"],
                    ["completed", "2 traces", "1 object created", "4"],
                    ["completed", "5 traces", "1 object created", "3"],
                ], size: .init(executions: 9, states: 0, steps: 9))
        ),
        (
            "counter-predict", .predictIt,
            Behaviour(
                outcomes: [
                    ["completed", "1 traces", "10"],
                    ["completed", "2 traces", "11"],
                    ["completed", "3 traces", "12"],
                    ["completed", "3 traces", "2"],
                ], size: .init(executions: 9, states: 0, steps: 6))
        ),
        (
            "deadlock-break", .breakIt,
            Behaviour(
                outcomes: [
                    ["completed", "24 traces", "110", "90"],
                    ["deadlocked", "3 traces", "100", "100"],
                ], size: .init(executions: 27, states: 0, steps: 24))
        ),
        (
            "deadlock-predict", .predictIt,
            Behaviour(
                outcomes: [
                    ["completed", "12 traces", "\"SAAS\""],
                    ["completed", "6 traces", "\"AASS\""],
                    ["completed", "6 traces", "\"SSAA\""],
                    ["deadlocked", "1 traces", "\"\""],
                    ["deadlocked", "2 traces", "\"A\""],
                    ["deadlocked", "4 traces", "\"S\""],
                    ["deadlocked", "4 traces", "\"SA\""],
                ], size: .init(executions: 35, states: 0, steps: 22))
        ),
        (
            "dealloc-break", .breakIt,
            Behaviour(
                outcomes: [
                    ["completed", "1 traces", "1 object created", "object#1 deallocated on main", "\"\""],
                    ["completed", "1 traces", "1 object created", "object#1 deallocated on main", "\"sunset\""],
                    ["completed", "1 traces", "1 object created", "object#1 deallocated on thread", "\"sunset\""],
                ], size: .init(executions: 3, states: 0, steps: 8))
        ),
        (
            "group-break", .breakIt,
            Behaviour(
                outcomes: [
                    ["completed", "66 traces", "30"],
                    ["completed", "8 traces", "10"],
                ], size: .init(executions: 74, states: 0, steps: 16))
        ),
        (
            "livelock-break", .breakIt,
            Behaviour(
                outcomes: [
                    ["completed", "142 traces", "1"],
                    ["completed", "51 traces", "0"],
                    ["completed", "68 traces", "2"],
                ], size: .init(executions: 261, states: 0, steps: 21))
        ),
        (
            "opinion-predict", .predictIt,
            Behaviour(
                outcomes: [
                    ["completed", "13 traces", "1 object created", "1 object created", "\"intro\"", "\"outro\""],
                    ["completed", "13 traces", "1 object created", "1 object created", "\"outro\"", "\"outro\""],
                    ["completed", "2 traces", "1 object created", "1 object created", "\"jazz\"", "\"jazz\""],
                    ["completed", "44 traces", "1 object created", "1 object created", "\"advert\"", "\"outro\""],
                    ["completed", "6 traces", "1 object created", "1 object created", "\"jazz\"", "\"outro\""],
                ], size: .init(executions: 78, states: 0, steps: 14))
        ),
        (
            "peterson-break", .breakIt,
            Behaviour(
                outcomes: [
                    ["completed", "14 traces", "2", "false", "false"],
                    ["completed", "2 traces", "1", "false", "false"],
                    ["crashed", "12 traces", "2", "true", "true"],
                ], size: .init(executions: 28, states: 0, steps: 17))
        ),
        (
            "sensor-predict", .predictIt,
            Behaviour(
                outcomes: [
                    ["completed", "10 traces", "11"],
                    ["completed", "200 traces", "15"],
                    ["completed", "25 traces", "7"],
                    ["completed", "4 traces", "3"],
                ], size: .init(executions: 239, states: 0, steps: 26))
        ),
        (
            "singleton-break", .breakIt,
            Behaviour(
                outcomes: [
                    ["completed", "114 traces", "1 object created", "Lock#2", "object#1", "object#1", "object#1"],
                    ["completed", "13 traces", "2 object created", "Lock#2", "object#1", "object#2", "object#2"],
                    ["completed", "16 traces", "2 object created", "Lock#1", "object#1", "object#1", "object#1"],
                    ["completed", "16 traces", "2 object created", "Lock#1", "object#2", "object#2", "object#2"],
                    ["completed", "192 traces", "1 object created", "Lock#1", "object#1", "object#1", "object#1"],
                    ["completed", "22 traces", "2 object created", "Lock#2", "object#2", "object#2", "object#2"],
                    ["completed", "26 traces", "2 object created", "Lock#2", "object#1", "object#1", "object#1"],
                    ["completed", "6 traces", "2 object created", "Lock#1", "object#1", "object#1", "object#2"],
                    ["completed", "8 traces", "2 object created", "Lock#1", "object#1", "object#2", "object#2"],
                    ["completed", "9 traces", "2 object created", "Lock#2", "object#1", "object#1", "object#2"],
                ], size: .init(executions: 458, states: 0, steps: 28))
        ),
        (
            "stale-predict", .predictIt,
            Behaviour(
                outcomes: [
                    ["completed", "440 traces", "\"ca\""],
                    ["completed", "512 traces", "\"c\""],
                    ["completed", "512 traces", "\"cats\""],
                ], size: .init(executions: 1464, states: 0, steps: 29))
        ),
    ]
}
